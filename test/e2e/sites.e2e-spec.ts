import { Site, SiteVisibility } from '@gitbook/api';
import { startTestQuire, TestQuire } from '../support/quire-app';

const SECRET_KEY = 'sites-e2e-secret-key-0123456789abcdef';

describe('sites (e2e, official client)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let reader: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  let spaceA: any;
  let spaceB: any;

  beforeAll(async () => {
    q = await startTestQuire({ secretKey: SECRET_KEY });
    owner = await q.createUser('Site Owner');
    reader = await q.createUser('Site Reader');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Sites Org', hostname: 'sites-org' } })).body.id;
    await q.http('PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, { token: owner.token, body: { role: 'read' } });
    spaceA = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'User Guide' } })).body;
    spaceB = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'API Reference' } })).body;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('creates a site with its spaces, lists and reads it, in GitBook shapes', async () => {
    const res = await owner.api.orgs.createSite(orgId, { title: 'Acme Docs', spaces: [spaceA.id] });
    expect(res.status).toBe(201);
    const site = res.data;
    expect(res.headers.get('location')).toBe(`${q.config.publicUrl}/v1/orgs/${orgId}/sites/${site.id}`);
    expect(site).toMatchObject({
      object: 'site',
      title: 'Acme Docs',
      visibility: 'public',
      published: false,
      siteSpaces: 1,
      permissions: { view: true, edit: true, admin: true },
      urls: { preview: `${q.config.publishedUrl}/sites-org/${site.id.toLowerCase()}` },
    });
    expect(site.urls.published).toBeUndefined();
    expect((await owner.api.orgs.getSiteById(orgId, site.id)).data).toEqual(site);
    expect((await reader.api.orgs.getSiteById(orgId, site.id)).data.permissions).toMatchObject({ view: true, edit: false });
    const listed = (await reader.api.orgs.listSites(orgId)).data.items.map((s) => s.id);
    expect(listed).toContain(site.id);
    const spaces = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    expect(spaces).toEqual([expect.objectContaining({ object: 'site-space', path: 'user-guide', default: true, title: 'User Guide', space: expect.objectContaining({ id: spaceA.id }) })]);
  });

  it('refuses writes without the create role, bad input, and sites of other organizations', async () => {
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Guarded' });
    expect((await q.http('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { token: reader.token, body: { title: 'Mine' } })).status).toBe(403);
    expect((await q.http('POST', `/v1/orgs/${orgId}/sites`, { token: reader.token, body: { title: 'Mine' } })).status).toBe(403);
    const stranger = await q.createUser('Stranger');
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${site.id}`, { token: stranger.token })).status).toBe(404);
    for (const body of [{ title: 'x' }, { visibility: 'visitor-auth' }, { basename: 'Not OK' }, { title: 7 }]) {
      const r = await q.http('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token, body });
      expect(r).toMatchObject({ status: 400, body: { error: { code: 400 } } });
    }
    const otherOrg = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Other Org' } })).body.id;
    expect((await q.http('GET', `/v1/orgs/${otherOrg}/sites/${site.id}`, { token: owner.token })).status).toBe(404);
    const foreignSpace = (await q.http('POST', `/v1/orgs/${otherOrg}/spaces`, { token: owner.token, body: { title: 'Foreign' } })).body;
    const added = await q.http('POST', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces`, { token: owner.token, body: { spaceId: foreignSpace.id } });
    expect(added).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/another organization/) } } });
    expect((await q.http('POST', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces`, { token: owner.token, body: { spaceId: null } })).status).toBe(400);
  });

  it('updates the title, basename (unique in the organization) and default site space', async () => {
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Handbook', spaces: [spaceA.id, spaceB.id] });
    const { data: updated } = await owner.api.orgs.updateSiteById(orgId, site.id, { title: 'The Handbook', basename: 'handbook' });
    expect(updated).toMatchObject({ title: 'The Handbook', urls: { preview: `${q.config.publishedUrl}/sites-org/handbook` } });
    const { data: other } = await owner.api.orgs.createSite(orgId, { title: 'Other' });
    expect((await q.http('PATCH', `/v1/orgs/${orgId}/sites/${other.id}`, { token: owner.token, body: { basename: 'handbook' } })).status).toBe(409);
    const [first, second] = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    await owner.api.orgs.updateSiteById(orgId, site.id, { defaultSiteSpace: second.id });
    const after = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    expect(after.map((s) => [s.id, s.default])).toEqual([[first.id, false], [second.id, true]]);
    const { data: moved } = await owner.api.orgs.updateSiteSpaceById(orgId, site.id, first.id, { path: 'guide', hidden: true });
    expect(moved).toMatchObject({ path: 'guide', hidden: true });
    expect((await q.http('PATCH', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${first.id}`, { token: owner.token, body: { path: second.path } })).status).toBe(409);
  });

  it('publishes and unpublishes; a site without site spaces cannot be published', async () => {
    const { data: empty } = await owner.api.orgs.createSite(orgId, { title: 'Empty' });
    expect((await q.http('POST', `/v1/orgs/${orgId}/sites/${empty.id}/publish`, { token: owner.token })).status).toBe(422);
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Published', spaces: [spaceA.id] });
    const published = (await owner.api.orgs.publishSite(orgId, site.id)).data as Site;
    expect(published).toMatchObject({ published: true, urls: { published: `${q.config.publishedUrl}/sites-org/${site.id.toLowerCase()}` } });
    const [siteSpace] = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    expect(siteSpace.urls.published).toBe(published.urls.published);
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${siteSpace.id}`, { token: owner.token })).status).toBe(422);
    expect((await owner.api.orgs.unpublishSite(orgId, site.id)).data.published).toBe(false);
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${siteSpace.id}`, { token: owner.token })).status).toBe(205);
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${siteSpace.id}`, { token: owner.token })).status).toBe(204);
  });

  it('answers a complete customization and merges updates into it', async () => {
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Styled' });
    const { data: initial } = await owner.api.orgs.getSiteCustomizationById(orgId, site.id);
    expect(initial).toMatchObject({ styling: { theme: 'clean' }, themes: { default: 'light' }, header: { links: [] } });
    const put = await q.http('PUT', `/v1/orgs/${orgId}/sites/${site.id}/customization`, {
      token: owner.token,
      body: { title: 'Acme', styling: { primaryColor: { light: '#FF0000', dark: '#00FF00' } } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Acme', styling: { theme: 'clean', primaryColor: { light: '#FF0000', dark: '#00FF00' } } });
    expect((await owner.api.orgs.getSiteCustomizationById(orgId, site.id)).data).toEqual(put.body);
    expect((await q.http('PUT', `/v1/orgs/${orgId}/sites/${site.id}/customization`, { token: owner.token, body: { nonsense: {} } })).status).toBe(400);
    expect((await q.http('PUT', `/v1/orgs/${orgId}/sites/${site.id}/customization`, { token: reader.token, body: { title: 'Mine' } })).status).toBe(403);
  });

  it('creates, lists, deactivates and deletes share links whose URL carries a key', async () => {
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Shared', visibility: SiteVisibility.ShareLink });
    const { data: link } = await owner.api.orgs.createSiteShareLink(orgId, site.id, { name: 'Partners' });
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true, urls: { published: expect.stringMatching(/\?share=[\w-]{32}$/) } });
    expect((await owner.api.orgs.listSiteShareLinks(orgId, site.id)).data.items).toEqual([link]);
    expect((await owner.api.orgs.updateSiteShareLinkById(orgId, site.id, link.id, { active: false })).data.active).toBe(false);
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${site.id}/share-links`, { token: reader.token })).status).toBe(403);
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}/share-links/${link.id}`, { token: owner.token })).status).toBe(205);
    expect((await owner.api.orgs.listSiteShareLinks(orgId, site.id)).data.items).toEqual([]);
  });

  it('creates, lists, updates and deletes redirects', async () => {
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Redirecting', spaces: [spaceA.id] });
    const [siteSpace] = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    const { data: redirect } = await owner.api.orgs.createSiteRedirect(orgId, site.id, { source: '/old/*', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
    expect(redirect).toMatchObject({ object: 'site-redirect', source: '/old/*', permanent: false, captureWildcard: false, draft: false });
    const bad = await q.http('POST', `/v1/orgs/${orgId}/sites/${site.id}/redirects`, { token: owner.token, body: { source: 'no-slash', destination: { kind: 'external', url: 'https://example.com' } } });
    expect(bad.status).toBe(400);
    const twice = await q.http('POST', `/v1/orgs/${orgId}/sites/${site.id}/redirects`, { token: owner.token, body: { source: '/old/*', destination: { kind: 'external', url: 'https://example.com' } } });
    expect(twice.status).toBe(409);
    const { data: updated } = await owner.api.orgs.updateSiteRedirectById(orgId, site.id, redirect.id, { permanent: true });
    expect(updated.permanent).toBe(true);
    expect((await owner.api.orgs.listSiteRedirects(orgId, site.id)).data.items.map((r) => r.id)).toEqual([redirect.id]);
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}/redirects/${redirect.id}`, { token: owner.token })).status).toBe(205);
  });

  it('deletes a site (205, then 204) and it is gone', async () => {
    const { data: site } = await owner.api.orgs.createSite(orgId, { title: 'Doomed', spaces: [spaceA.id] });
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token })).status).toBe(205);
    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token })).status).toBe(204);
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token })).status).toBe(404);
  });
});
