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

  it('treats empty strings as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('allows no private git host unless QUIRE_GIT_ALLOWED_HOSTS names it', () => {
    expect(loadConfig({}).gitAllowedHosts).toEqual([]);
    expect(loadConfig({ QUIRE_GIT_ALLOWED_HOSTS: ' git.corp , 10.0.0.5:8080,[::1]:3000 ' }).gitAllowedHosts).toEqual(['git.corp', '10.0.0.5:8080', '[::1]:3000']);
    expect(() => loadConfig({ QUIRE_GIT_ALLOWED_HOSTS: 'https://git.corp/' })).toThrow(/QUIRE_GIT_ALLOWED_HOSTS/);
    expect(() => loadConfig({ QUIRE_GIT_ALLOWED_HOSTS: 'user@git.corp' })).toThrow(/QUIRE_GIT_ALLOWED_HOSTS/);
  });
});
