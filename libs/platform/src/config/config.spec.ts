import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './data',
      redisUrl: 'redis://127.0.0.1:6379',
      publicUrl: 'http://localhost:3000',
    });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('names the variable that has a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ QUIRE_ADMIN_TOKEN: 'short' })).toThrow(/QUIRE_ADMIN_TOKEN/);
  });

  it('tells a configured queue prefix from the default one', () => {
    expect(loadConfig({})).toMatchObject({ queuePrefix: 'quire', queuePrefixConfigured: false });
    expect(loadConfig({ QUIRE_QUEUE_PREFIX: 'staging' })).toMatchObject({ queuePrefix: 'staging', queuePrefixConfigured: true });
    expect(loadConfig({}, { queuePrefix: 'test-1' })).toMatchObject({ queuePrefix: 'test-1', queuePrefixConfigured: true });
  });

  it('limits git imports to 256 MiB unless QUIRE_IMPORT_MAX_BYTES says otherwise', () => {
    expect(loadConfig({}).importMaxBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ QUIRE_IMPORT_MAX_BYTES: '1000000' }).importMaxBytes).toBe(1_000_000);
    expect(() => loadConfig({ QUIRE_IMPORT_MAX_BYTES: 'lots' })).toThrow(/QUIRE_IMPORT_MAX_BYTES/);
  });

  it('retries a transient job failure after 1 s unless QUIRE_JOB_RETRY_DELAY_MS says otherwise', () => {
    expect(loadConfig({}).jobRetryDelayMs).toBe(1000);
    expect(loadConfig({ QUIRE_JOB_RETRY_DELAY_MS: '50' }).jobRetryDelayMs).toBe(50);
    expect(() => loadConfig({ QUIRE_JOB_RETRY_DELAY_MS: '0' })).toThrow(/QUIRE_JOB_RETRY_DELAY_MS/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('allows no private git host unless QUIRE_GIT_ALLOWED_HOSTS names it', () => {
    expect(loadConfig({}).gitAllowedHosts).toEqual([]);
    expect(loadConfig({ QUIRE_GIT_ALLOWED_HOSTS: ' git.corp , 10.0.0.5:8080,[::1]:3000 ' }).gitAllowedHosts).toEqual(['git.corp', '10.0.0.5:8080', '[::1]:3000']);
    expect(() => loadConfig({ QUIRE_GIT_ALLOWED_HOSTS: 'https://git.corp/' })).toThrow(/QUIRE_GIT_ALLOWED_HOSTS/);
    expect(() => loadConfig({ QUIRE_GIT_ALLOWED_HOSTS: 'user@git.corp' })).toThrow(/QUIRE_GIT_ALLOWED_HOSTS/);
  });

  it('limits failed authentication by default, and reads which proxies to trust', () => {
    expect(loadConfig({})).toMatchObject({ authFailureLimitPerMinute: 20, rateLimitPerMinute: 0, trustProxy: false });
    expect(loadConfig({ QUIRE_AUTH_FAILURE_LIMIT: '0' }).authFailureLimitPerMinute).toBe(0);
    expect(loadConfig({ QUIRE_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ QUIRE_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ QUIRE_TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => loadConfig({ QUIRE_TRUST_PROXY: 'proxy.example.com' })).toThrow(/QUIRE_TRUST_PROXY/);
    expect(() => loadConfig({ QUIRE_AUTH_FAILURE_LIMIT: '-1' })).toThrow(/QUIRE_AUTH_FAILURE_LIMIT/);
  });
});
