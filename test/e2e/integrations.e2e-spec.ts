import { SecretBox } from '@quire/platform/crypto/secret-box';
import { startTestQuire, TestQuire } from '../support/quire-app';

const SECRET_KEY = 'integration-test-secret-key-0123456789';
const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

/** A PublishIntegration body with what GitBook requires, plus `extra`. */
const manifest = (organization: string, extra: Record<string, unknown> = {}) => ({
  title: 'Acme Tools',
  description: 'Embeds Acme things',
  script: 'export default createIntegration({});',
  scopes: ['space:content:read'],
  organization,
  ...extra,
});

describe('integrations (e2e, official client)', () => {
  let q: TestQuire;
  let admin: User;
  let editor: User;
  let outsider: User;
  let org: { id: string; hostname: string };
  let otherOrg: { id: string };
  let n = 0;
  const uniqueName = (base: string) => `${base}-${++n}-${Date.now().toString(36)}`;

  beforeAll(async () => {
    q = await startTestQuire({ secretKey: SECRET_KEY });
    admin = await q.createUser('Integration Admin');
    editor = await q.createUser('Integration Editor');
    outsider = await q.createUser('Integration Outsider');
    const hostname = `acme-${Date.now().toString(36)}`;
    org = (await q.http('POST', '/v1/orgs', { token: admin.token, body: { title: 'Acme', hostname } })).body;
    await q.http('PATCH', `/v1/orgs/${org.id}/members/${editor.id}`, { token: admin.token, body: { role: 'edit' } });
    otherOrg = (await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Other' } })).body;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('publishes (create, then update with a new version) and reads it back; secrets are sealed in the events and never returned', async () => {
    const name = uniqueName('acme');
    const body = manifest(org.id, {
      visibility: 'public',
      summary: '# Acme\n\nLong form.',
      categories: ['content', 'other'],
      externalLinks: [{ url: 'https://acme.example/docs', label: 'Docs' }],
      secrets: { API_KEY: 'super-secret-value-42' },
      contentSecurityPolicy: { 'script-src': "'self'" },
      icon: PNG_1x1,
      previewImages: [PNG_1x1],
      configurations: { space: { properties: { project: { type: 'string', title: 'Project' } }, required: ['project'] } },
    });
    const { data: first, status } = await admin.api.integrations.publishIntegration(name, body as any);
    expect(status).toBe(200);
    const location = `${q.config.publicUrl}/v1/integrations/${name}`;
    expect(first).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      title: 'Acme Tools',
      description: 'Embeds Acme things',
      summary: '# Acme\n\nLong form.',
      target: 'all',
      verified: false,
      visibility: 'public',
      scopes: ['space:content:read'],
      categories: ['content', 'other'],
      externalLinks: [{ url: 'https://acme.example/docs', label: 'Docs' }],
      contentSecurityPolicy: { 'script-src': "'self'" },
      owner: { object: 'organization', id: org.id, hostname: org.hostname, permissions: expect.objectContaining({ admin: true }) },
      urls: { location, app: `${q.config.appUrl}/integrations/${name}`, assets: `${location}/assets`, icon: expect.stringMatching(new RegExp(`^${location}/assets/[0-9a-f]{64}$`)) },
      permissions: { admin: true },
    });
    expect(first.previewImages).toEqual([first.urls.icon]);
    expect(JSON.stringify(first)).not.toContain('super-secret-value-42');
    expect(JSON.stringify(first)).not.toContain('secrets');

    // The icon is served by content hash, without a token (an <img> sends none).
    const icon = await fetch(q.url + new URL(first.urls.icon!).pathname);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).equals(Buffer.from(PNG_1x1, 'base64'))).toBe(true);

    const { data: second } = await admin.api.integrations.publishIntegration(name, { ...body, title: 'Acme Tools 2', organization: org.hostname } as any);
    expect(second).toMatchObject({ version: 2, title: 'Acme Tools 2' });
    const { data: read } = await outsider.api.integrations.getIntegrationByName(name);
    expect(read).toMatchObject({ name, version: 2, permissions: { admin: false }, owner: { id: org.id, permissions: expect.objectContaining({ admin: false, view: false }) } });

    // The events: stream integration-<name>, the secrets only as AES-GCM ciphertext bound to the name.
    const events = await q.started.runtime.store.readStream(`integration-${name}`);
    expect(events.map((e) => e.type)).toEqual(['IntegrationPublished', 'IntegrationPublished']);
    const leaked = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM quire_events WHERE data::text LIKE '%super-secret-value-42%'`);
    expect(leaked.rows[0].n).toBe(0);
    const sealed = (events[1].data as any).secrets;
    expect(sealed).toMatchObject({ alg: 'aes-256-gcm', kid: expect.any(String), iv: expect.any(String), tag: expect.any(String), data: expect.any(String) });
    const box = new SecretBox(SECRET_KEY, 'integration-secrets');
    expect(JSON.parse(box.open(sealed, `integration:${name}`))).toEqual({ API_KEY: 'super-secret-value-42' });
    expect(() => box.open(sealed, 'integration:another')).toThrow();
    const inReadModels = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM rm_integrations WHERE row_to_json(rm_integrations)::text LIKE '%super-secret%'`);
    expect(inReadModels.rows[0].n).toBe(0);
  });

  it('keeps the secrets when a new version does not send them; {} clears them', async () => {
    const name = uniqueName('keeps');
    const box = new SecretBox(SECRET_KEY, 'integration-secrets');
    const secretsOf = async () => {
      const events = await q.started.runtime.store.readStream(`integration-${name}`);
      const sealed = (events[events.length - 1].data as any).secrets;
      return sealed ? JSON.parse(box.open(sealed, `integration:${name}`)) : undefined;
    };
    const hasSecrets = async () => (await q.started.runtime.db.query(`SELECT has_secrets FROM rm_integrations WHERE name = $1`, [name])).rows[0]?.has_secrets;
    await admin.api.integrations.publishIntegration(name, manifest(org.id, { secrets: { API_KEY: 'v1' } }) as any);
    expect(await secretsOf()).toEqual({ API_KEY: 'v1' });
    const { data: second } = await admin.api.integrations.publishIntegration(name, manifest(org.id, { title: 'Second' }) as any);
    expect(second.title).toBe('Second');
    expect(await secretsOf()).toEqual({ API_KEY: 'v1' });
    expect(await hasSecrets()).toBe(true);
    await admin.api.integrations.publishIntegration(name, manifest(org.id, { secrets: { API_KEY: 'v2' } }) as any);
    expect(await secretsOf()).toEqual({ API_KEY: 'v2' });
    await admin.api.integrations.publishIntegration(name, manifest(org.id, { secrets: {} }) as any);
    expect(await secretsOf()).toBeUndefined();
    expect(await hasSecrets()).toBe(false);
    await admin.api.integrations.publishIntegration(name, manifest(org.id) as any);
    expect(await secretsOf()).toBeUndefined();
  });

  it('accepts content security policy directives beyond the ones GitBook names, as its schema does', async () => {
    const name = uniqueName('csp');
    const csp = { 'script-src': "'self'", 'fenced-frame-src': "'none'", 'x-future-directive': 'a b' };
    const r = await q.http('POST', `/v1/integrations/${name}`, { token: admin.token, body: manifest(org.id, { contentSecurityPolicy: csp }) });
    expect([r.status, r.body.contentSecurityPolicy]).toEqual([200, csp]);
  });

  it('validates the name and the body with 400 naming the field', async () => {
    const publish = (name: string, body: unknown) => q.http('POST', `/v1/integrations/${name}`, { token: admin.token, body });
    const cases: Array<[string, unknown, RegExp]> = [
      ['bad%20name', manifest(org.id), /integrationName/],
      ['x'.repeat(101), manifest(org.id), /integrationName/],
      ['ok-name', { ...manifest(org.id), title: undefined }, /title/],
      ['ok-name', manifest(org.id, { title: 'x' }), /title/],
      ['ok-name', manifest(org.id, { description: 'd'.repeat(101) }), /description/],
      ['ok-name', manifest(org.id, { scopes: ['space:everything'] }), /scopes/],
      ['ok-name', { ...manifest(org.id), script: undefined }, /script/],
      ['ok-name', { ...manifest(org.id), organization: undefined }, /organization/],
      ['ok-name', manifest(org.id, { visibility: 'secret' }), /visibility/],
      ['ok-name', manifest(org.id, { target: 'planet' }), /target/],
      ['ok-name', manifest(org.id, { runtime: 'v9' }), /runtime/],
      ['ok-name', manifest(org.id, { externalLinks: Array.from({ length: 6 }, () => ({ url: 'https://a.example', label: 'a' })) }), /externalLinks/],
      ['ok-name', manifest(org.id, { externalLinks: [{ url: 'javascript:alert(1)', label: 'a' }] }), /externalLinks/],
      ['ok-name', manifest(org.id, { previewImages: [PNG_1x1, PNG_1x1, PNG_1x1, PNG_1x1] }), /previewImages/],
      ['ok-name', manifest(org.id, { icon: 'not base64!' }), /icon/],
      ['ok-name', manifest(org.id, { icon: Buffer.from('plain text').toString('base64') }), /icon: must be a PNG/],
      ['ok-name', manifest(org.id, { blocks: [{ id: 'b', title: 'x' }] }), /blocks/],
      ['ok-name', manifest(org.id, { contentSecurityPolicy: { 'script-src': 5 } }), /contentSecurityPolicy/],
      ['ok-name', manifest(org.id, { icon: '' }), /icon/],
      ['ok-name', manifest(org.id, { secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])) }), /secrets/],
      ['ok-name', manifest(org.id, { configurations: { space: { properties: { p: { type: 'colour' } } } } }), /configurations/],
    ];
    for (const [name, body, field] of cases) {
      const r = await publish(name, body);
      expect({ name, status: r.status, body: r.body }).toMatchObject({ status: 400, body: { error: { code: 400, message: expect.stringMatching(field) } } });
    }
    const noBody = await q.http('POST', '/v1/integrations/ok-name', { token: admin.token });
    expect(noBody.status).toBe(400);
  });

  it('needs the admin role in the organization: 404 for an unknown organization or a non-member, 403 for a member, ok for the instance admin', async () => {
    const name = uniqueName('perm');
    const publish = (token: string, organization: string) => q.http('POST', `/v1/integrations/${name}`, { token, body: manifest(organization) });
    expect(await publish(admin.token, 'no-such-org')).toMatchObject({ status: 404, body: { error: { code: 404, message: expect.stringMatching(/organization could not be found/i) } } });
    expect((await publish(outsider.token, org.id)).status).toBe(404);
    expect(await publish(editor.token, org.id)).toMatchObject({ status: 403, body: { error: { code: 403 } } });
    expect((await q.http('POST', `/v1/integrations/${name}`, { body: manifest(org.id) })).status).toBe(401);
    const { data } = await q.admin.integrations.publishIntegration(name, manifest(org.id) as any);
    expect(data).toMatchObject({ name, version: 1, owner: { id: org.id }, permissions: { admin: true } });
    // A name is one organization's while published.
    const taken = await q.http('POST', `/v1/integrations/${name}`, { token: outsider.token, body: manifest(otherOrg.id) });
    expect(taken).toMatchObject({ status: 409, body: { error: { message: expect.stringMatching(/another organization/) } } });
  });

  it('keeps private integrations to the members of their organization', async () => {
    const name = uniqueName('private');
    await admin.api.integrations.publishIntegration(name, manifest(org.id, { visibility: 'private' }) as any);
    expect((await editor.api.integrations.getIntegrationByName(name)).data).toMatchObject({ name, visibility: 'private', permissions: { admin: false } });
    const hidden = await q.http('GET', `/v1/integrations/${name}`, { token: outsider.token });
    expect(hidden).toMatchObject({ status: 404, body: { error: { code: 404 } } });
    // Unpublishing what one cannot see looks like unpublishing nothing; it stays published.
    expect((await q.http('DELETE', `/v1/integrations/${name}`, { token: outsider.token })).status).toBe(204);
    expect((await editor.api.integrations.getIntegrationByName(name)).status).toBe(200);
    const unlisted = uniqueName('unlisted');
    await admin.api.integrations.publishIntegration(unlisted, manifest(org.id, { visibility: 'unlisted' }) as any);
    expect((await outsider.api.integrations.getIntegrationByName(unlisted)).data.visibility).toBe('unlisted');
  });

  it('unpublishes: 205 when deleted, 204 when it did not exist; 403 for non-admins', async () => {
    const name = uniqueName('gone');
    await admin.api.integrations.publishIntegration(name, manifest(org.id, { visibility: 'public' }) as any);
    expect((await q.http('DELETE', `/v1/integrations/${name}`, { token: outsider.token })).status).toBe(403);
    expect((await q.http('DELETE', `/v1/integrations/${name}`, { token: editor.token })).status).toBe(403);
    const deleted = await admin.api.integrations.unpublishIntegration(name);
    expect(deleted.status).toBe(205);
    expect((await admin.api.integrations.unpublishIntegration(name)).status).toBe(204);
    expect((await q.http('GET', `/v1/integrations/${name}`, { token: admin.token })).status).toBe(404);
    expect((await q.http('DELETE', '/v1/integrations/never-was', { token: outsider.token })).status).toBe(204);
    // Publishing again counts on from the last version; another organization may now take the name.
    const { data: again } = await outsider.api.integrations.publishIntegration(name, manifest(otherOrg.id) as any);
    expect(again).toMatchObject({ version: 2, owner: { id: otherOrg.id } });
    const events = await q.started.runtime.store.readStream(`integration-${name}`);
    expect(events.map((e) => e.type)).toEqual(['IntegrationPublished', 'IntegrationUnpublished', 'IntegrationPublished']);
  });

  it('lists integrations with keyset pages and the filters GitBook defines', async () => {
    const tag = `list${Date.now().toString(36)}`;
    const publish = (suffix: string, extra: Record<string, unknown>) =>
      admin.api.integrations.publishIntegration(`${tag}-${suffix}`, manifest(org.id, { visibility: 'public', ...extra }) as any);
    await publish('a', { categories: ['analytics'], target: 'space', scopes: ['space:content:read', 'openapi:read'] });
    await publish('b', { categories: ['content'], blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.youtube.com/watch?v=*'] }] });
    await publish('c', { categories: ['content'], target: 'site', contentSources: [{ id: 'src', title: 'Source', configuration: { componentId: 'config' } }] });
    await publish('d', { visibility: 'private' });

    const names = async (api: any, query: Record<string, unknown>) => ((await api.integrations.listIntegrations({ search: tag, ...query })).data.items as any[]).map((i) => i.name);
    expect(await names(outsider.api, {})).toEqual([`${tag}-a`, `${tag}-b`, `${tag}-c`]);
    // Members see their organization's private integrations too.
    expect(await names(editor.api, {})).toEqual([`${tag}-a`, `${tag}-b`, `${tag}-c`, `${tag}-d`]);
    expect(await names(outsider.api, { category: 'content' })).toEqual([`${tag}-b`, `${tag}-c`]);
    expect(await names(outsider.api, { scope: 'openapi:read' })).toEqual([`${tag}-a`]);
    expect(await names(outsider.api, { target: 'space' })).toEqual([`${tag}-a`, `${tag}-b`]);
    expect(await names(outsider.api, { blocks: true })).toEqual([`${tag}-b`]);
    expect(await names(outsider.api, { blocks: false })).toEqual([`${tag}-a`, `${tag}-c`]);
    expect(await names(outsider.api, { contentSources: true })).toEqual([`${tag}-c`]);
    expect(await names(outsider.api, { blockDomain: 'youtube.com' })).toEqual([`${tag}-b`]);
    expect(await names(outsider.api, { owner: org.id })).toEqual([`${tag}-a`, `${tag}-b`, `${tag}-c`]);
    expect(await names(outsider.api, { owner: org.hostname })).toEqual([`${tag}-a`, `${tag}-b`, `${tag}-c`]);
    expect(await names(outsider.api, { owner: otherOrg.id })).toEqual([]);
    expect(await names(outsider.api, { owner: 'nobody' })).toEqual([]);

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await outsider.api.integrations.listIntegrations({ search: tag, limit: 2, page });
      seen.push(...data.items.map((i) => i.name));
      page = data.next?.page;
      // A page stays valid while the data changes (keyset on the name).
      if (page && seen.length === 2) await publish('0-first', {});
    } while (page);
    expect(seen).toEqual([`${tag}-a`, `${tag}-b`, `${tag}-c`]);

    for (const query of ['limit=0', 'limit=1001', 'category=games', 'scope=all', 'blocks=maybe', 'page=garbage']) {
      const r = await q.http('GET', `/v1/integrations?${query}`, { token: outsider.token });
      expect({ query, status: r.status }).toEqual({ query, status: 400 });
    }
  });
});

describe('integrations without QUIRE_SECRET_KEY (e2e)', () => {
  let q: TestQuire;
  let admin: User;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire({ secretKey: undefined });
    admin = await q.createUser('Keyless Admin');
    orgId = (await q.http('POST', '/v1/orgs', { token: admin.token, body: { title: 'Keyless' } })).body.id;
  });
  afterAll(async () => {
    await q?.close();
  });

  it('refuses to store secrets (422, nothing recorded) but publishes without them', async () => {
    const refused = await q.http('POST', '/v1/integrations/keyless', { token: admin.token, body: manifest(orgId, { secrets: { TOKEN: 'abc' } }) });
    expect(refused).toMatchObject({ status: 422, body: { error: { code: 422, message: expect.stringMatching(/QUIRE_SECRET_KEY/) } } });
    expect(await q.started.runtime.store.readStream('integration-keyless')).toEqual([]);
    const { data } = await admin.api.integrations.publishIntegration('keyless', manifest(orgId, { secrets: {} }) as any);
    expect(data.version).toBe(1);
    expect(q.violations).toEqual([]);
  });
});
