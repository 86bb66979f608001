import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { SignJWT } from 'jose';
import { loadConfig } from '@quire/platform/config/config';
import { siteTokenMayCall } from './site-token-routes';
import { looksLikeJwt, SiteTokenClaims, SiteTokens } from './site-tokens';

const claims: SiteTokenClaims = { kind: 'site', organization: 'o1', site: 's1', siteSpace: 'ss1', space: 'sp1', spaces: ['sp1', 'sp2'] };

describe('site tokens', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'quire-site-tokens-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const tokens = (over = {}) => new SiteTokens(loadConfig({}, { dataDir, ...over }));

  it('signs a JWT the renderer can read, and verifies it back', async () => {
    const token = await tokens().sign(claims, new Date('2030-01-01T00:00:00Z'));
    expect(looksLikeJwt(token)).toBe(true);
    expect(looksLikeJwt('gb_api_0123456789abcdef')).toBe(false);
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({ ...claims, iss: 'quire', exp: Date.parse('2030-01-01T01:00:00Z') / 1000 });
    expect(await tokens().verify(await tokens().sign(claims))).toEqual(claims);
  });

  it('keeps the generated key in DATA_DIR/secrets, and a configured key takes precedence', async () => {
    const token = await tokens().sign(claims);
    const key = readFileSync(join(dataDir, 'secrets', 'site-token.key'), 'utf8');
    expect(key.length).toBeGreaterThanOrEqual(32);
    // Another process on the same DATA_DIR reads the same key.
    expect((await tokens().verify(token)).site).toBe('s1');
    const configured = tokens({ siteTokenKey: 'k'.repeat(40) });
    await expect(configured.verify(token)).rejects.toThrow(/Invalid site token/);
    expect((await configured.verify(await configured.sign(claims))).site).toBe('s1');
  });

  it('refuses expired tokens, other algorithms and tokens that are not site tokens', async () => {
    const t = tokens();
    await expect(t.verify(await t.sign(claims, new Date(Date.now() - 2 * 3600_000)))).rejects.toThrow(/expired/);
    const key = new TextEncoder().encode(readFileSync(join(dataDir, 'secrets', 'site-token.key'), 'utf8'));
    const notSite = await new SignJWT({ ...claims, kind: 'user' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('quire').setExpirationTime('1h').sign(key);
    await expect(t.verify(notSite)).rejects.toThrow(/Invalid site token/);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    await expect(t.verify(unsigned)).rejects.toThrow(/Invalid site token/);
  });

  it('refuses a token once it expires, though it was verified (and remembered) before', async () => {
    const t = tokens();
    const token = await t.sign(claims, new Date(Date.now() - 3600_000 + 1500));
    expect(t.verified(token)).toBeUndefined();
    expect((await t.verify(token)).site).toBe('s1');
    // The warm path (no promise) answers the remembered claims, only until the token expires.
    expect(t.verified(token)?.site).toBe('s1');
    await new Promise((r) => setTimeout(r, 2000));
    expect(t.verified(token)).toBeUndefined();
    await expect(t.verify(token)).rejects.toThrow(/expired/);
  });

  it('issues the token it signed lately for the same claims, and a new one for other claims', async () => {
    const t = tokens();
    const first = await t.issue(claims);
    expect(await t.issue({ ...claims })).toBe(first);
    const other = await t.issue({ ...claims, siteSpace: 'ss2' });
    expect(other).not.toBe(first);
    expect((await t.verify(other)).siteSpace).toBe('ss2');
    expect(await t.issue({ ...claims, shareLink: 'l1' })).not.toBe(first);
  });

  it('admits a site token only on the routes of published content', () => {
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId')).toBe(true);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/revisions/:revisionId/page/:pageId/document')).toBe(true);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/content/path/*')).toBe(true);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/documents/:documentId')).toBe(true);
    expect(siteTokenMayCall('POST', '/v1/orgs/:organizationId/sites/:siteId/search')).toBe(true);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/revisions/:revisionId')).toBe(true);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/revisions/:revisionId/path/*')).toBe(true);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/revisions')).toBe(false);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/revisions/:revisionId/changes')).toBe(false);
    expect(siteTokenMayCall('POST', '/v1/spaces/:spaceId/revisions/:revisionId/restore')).toBe(false);
    expect(siteTokenMayCall('PATCH', '/v1/spaces/:spaceId')).toBe(false);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/change-requests')).toBe(false);
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId/permissions/aggregate')).toBe(false);
    expect(siteTokenMayCall('GET', '/v1/orgs/:organizationId/sites/:siteId')).toBe(false);
    expect(siteTokenMayCall('GET', undefined)).toBe(false);
    // Decided once per method and route, then answered the same.
    expect(siteTokenMayCall('GET', '/v1/spaces/:spaceId')).toBe(true);
    expect(siteTokenMayCall('head', '/v1/spaces/:spaceId')).toBe(true);
    expect(siteTokenMayCall('PATCH', '/v1/spaces/:spaceId')).toBe(false);
  });
});
