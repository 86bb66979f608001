import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { decodeJwt, SignJWT } from 'jose';
import { until } from '../chaos/chaos-support';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

const FILES = {
  'README.md': '# Welcome\n\nThe start.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](guides/install.md)\n',
  'guides/install.md': '# Install\n\nRun the installer.\n',
};

describe('published URLs and site tokens (e2e)', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  let docs: any;
  let internal: any;
  let siteId: string;
  let siteUrl: string;

  const resolve = (url: string) => q.http('POST', '/v1/urls/published', { body: { url } });
  const tokenFor = async (url: string): Promise<string> => {
    const r = await resolve(url);
    expect(r.status).toBe(200);
    return r.body.apiToken;
  };

  async function importFiles(spaceId: string, name: string) {
    await createRepoFromFiles(root, name, FILES);
    expect((await q.http('POST', `/v1/spaces/${spaceId}/git/import`, { token: owner.token, body: { url: `${git.url}/${name}.git`, ref: 'refs/heads/main' } })).status).toBe(204);
    const run = await until('the import to finish', async () => (await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: owner.token })).body.items.find((i: any) => !['queued', 'running'].includes(i.status)));
    expect(run.status).toBe('completed');
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-site-tokens-git-'));
    git = await startGitHttpServer({ root });
    q = await startTestQuire({ secretKey: 'site-tokens-e2e-secret-key-0123456789' });
    owner = await q.createUser('Publisher');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Acme', hostname: 'acme' } })).body.id;
    docs = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Docs' } })).body;
    internal = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Internal' } })).body;
    await importFiles(docs.id, 'docs');
    await importFiles(internal.id, 'internal');
    docs = (await q.http('GET', `/v1/spaces/${docs.id}`, { token: owner.token })).body;
    const site = (await owner.api.orgs.createSite(orgId, { title: 'Acme Docs', spaces: [docs.id] })).data;
    siteId = site.id;
    await owner.api.orgs.updateSiteById(orgId, siteId, { basename: 'docs' });
    await owner.api.orgs.publishSite(orgId, siteId);
    siteUrl = `${q.config.publishedUrl}/acme/docs`;
  });
  afterAll(async () => {
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('does not resolve an unpublished site, and issues no token for it', async () => {
    const site = (await owner.api.orgs.createSite(orgId, { title: 'Draft', spaces: [docs.id] })).data;
    await owner.api.orgs.updateSiteById(orgId, site.id, { basename: 'draft' });
    const r = await resolve(`${q.config.publishedUrl}/acme/draft/guides/install`);
    expect(r).toMatchObject({ status: 404, body: { error: { code: 404 } } });
    expect(JSON.stringify(r.body)).not.toMatch(/apiToken|eyJ/);
  });

  it('resolves a published URL to the site, site space, space, revision and page path, with a site token', async () => {
    const { data } = await q.client().urls.resolvePublishedContentByUrl({ url: `${siteUrl}/guides/install` });
    const [siteSpace] = (await owner.api.orgs.listSiteSpaces(orgId, siteId)).data.items;
    const sitePath = new URL(siteUrl).pathname;
    expect(data).toEqual({
      organization: orgId,
      site: siteId,
      siteSpace: siteSpace.id,
      space: docs.id,
      revision: docs.revision,
      pathname: 'guides/install',
      basePath: `${sitePath}/`,
      siteBasePath: `${sitePath}/`,
      canonicalUrl: `${siteUrl}/guides/install`,
      complete: true,
      apiToken: expect.any(String),
    });
    const claims = decodeJwt((data as any).apiToken);
    expect(claims).toMatchObject({ kind: 'site', organization: orgId, site: siteId, siteSpace: siteSpace.id, space: docs.id, spaces: [docs.id] });
    expect(claims.exp! - Math.floor(Date.now() / 1000)).toBeGreaterThan(60);
    // The GET form answers the same, and the scheme does not matter (the renderer asks with https).
    const get = await q.http('GET', `/v1/urls/published?url=${encodeURIComponent(siteUrl.replace(/^http:/, 'https:'))}`);
    expect(get.body).toMatchObject({ site: siteId, pathname: '', canonicalUrl: siteUrl });
  });

  it('answers 404 for URLs that name nothing, and 400 for bad input', async () => {
    for (const url of [`${q.config.publishedUrl}/acme/nope`, `${q.config.publishedUrl}/nobody/docs`, 'https://elsewhere.example/acme/docs', 'not a url']) {
      expect((await resolve(url)).status).toBe(404);
    }
    expect((await q.http('POST', '/v1/urls/published', { body: {} })).status).toBe(400);
    expect((await q.http('GET', '/v1/urls/published')).status).toBe(400);
  });

  it('lets the site token read the site\'s published spaces, and nothing else', async () => {
    const token = await tokenFor(`${siteUrl}/guides/install`);
    expect((await q.http('GET', `/v1/spaces/${docs.id}`, { token })).body).toMatchObject({ id: docs.id, permissions: { view: true, edit: false, admin: false } });
    expect((await q.http('GET', `/v1/spaces/${docs.id}/content`, { token })).status).toBe(200);
    const pages = (await q.http('GET', `/v1/spaces/${docs.id}/content`, { token: owner.token })).body.pages;
    const install = pages.find((p: any) => p.title === 'Install');
    const asVisitor = await q.http('GET', `/v1/spaces/${docs.id}/content/path/${install.path}?format=markdown`, { token });
    expect(asVisitor.body).toEqual((await q.http('GET', `/v1/spaces/${docs.id}/content/path/${install.path}?format=markdown`, { token: owner.token })).body);
    expect(asVisitor.body.markdown).toMatch(/Run the installer/);
    // The revision reads GitBook's renderer makes, with the revision urls/published named.
    const revision = docs.revision;
    expect((await q.http('GET', `/v1/spaces/${docs.id}/revisions/${revision}?metadata=true`, { token })).body).toMatchObject({ id: revision });
    const document = await q.http('GET', `/v1/spaces/${docs.id}/revisions/${revision}/page/${install.id}/document?evaluated=deterministic-only&dereferenced=reusable-contents`, { token });
    expect(document.status).toBe(200);
    expect(JSON.stringify(document.body)).toContain('Run the installer');
    expect((await q.http('GET', `/v1/spaces/${internal.id}/revisions/${internal.revision}`, { token })).status).toBe(404);
    expect((await q.http('GET', `/v1/spaces/${docs.id}/search?query=installer`, { token })).status).toBe(200);
    // Another space of the organization does not exist for it.
    expect((await q.http('GET', `/v1/spaces/${internal.id}`, { token })).status).toBe(404);
    expect((await q.http('GET', `/v1/spaces/${internal.id}/content`, { token })).status).toBe(404);
    // Nothing but published content: no writes, organization, change requests, permissions or own user.
    const refused: Array<[string, string, unknown?]> = [
      ['PATCH', `/v1/spaces/${docs.id}`, { title: 'Hijacked' }],
      ['POST', `/v1/spaces/${docs.id}/change-requests`, { subject: 'x' }],
      ['POST', `/v1/spaces/${docs.id}/git/import`, { url: 'https://example.com/x.git', ref: 'refs/heads/main' }],
      ['DELETE', `/v1/spaces/${docs.id}`],
      ['GET', `/v1/spaces/${docs.id}/change-requests`],
      ['GET', `/v1/spaces/${docs.id}/revisions`],
      ['GET', `/v1/spaces/${docs.id}/permissions/aggregate`],
      ['GET', `/v1/orgs/${orgId}`],
      ['GET', `/v1/orgs/${orgId}/sites/${siteId}`],
      ['PUT', `/v1/orgs/${orgId}/sites/${siteId}/customization`, { title: 'x' }],
      ['GET', '/v1/user'],
    ];
    for (const [method, path, body] of refused) {
      const r = await q.http(method, path, { token, body });
      expect([method, path, r.status]).toEqual([method, path, 403]);
    }
    expect((await q.http('GET', `/v1/spaces/${docs.id}`, { token: owner.token })).body.title).toBe('Docs');
  });

  it('refuses forged, tampered and expired tokens with 401', async () => {
    const token = await tokenFor(siteUrl);
    const [header, payload, signature] = token.split('.');
    const widened = Buffer.from(JSON.stringify({ ...decodeJwt(token), spaces: [docs.id, internal.id], space: internal.id })).toString('base64url');
    expect((await q.http('GET', `/v1/spaces/${internal.id}`, { token: `${header}.${widened}.${signature}` })).status).toBe(401);
    const forged = await new SignJWT({ ...decodeJwt(token) }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-installation-key-0123456789abcdef'));
    expect((await q.http('GET', `/v1/spaces/${docs.id}`, { token: forged })).status).toBe(401);
    // Signed with the installation's key (generated under DATA_DIR/secrets), but expired.
    const key = new TextEncoder().encode(readFileSync(join(q.config.dataDir, 'secrets', 'site-token.key'), 'utf8').trim());
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await new SignJWT({ ...decodeJwt(token), iat: past, exp: past + 60 }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await q.http('GET', `/v1/spaces/${docs.id}`, { token: expired })).body).toMatchObject({ error: { code: 401, message: expect.stringMatching(/expired/) } });
    expect(payload).toBeTruthy();
  });

  it('stops honouring a token once its site is unpublished or no longer shows the space', async () => {
    const token = await tokenFor(siteUrl);
    await owner.api.orgs.unpublishSite(orgId, siteId);
    expect((await q.http('GET', `/v1/spaces/${docs.id}`, { token })).status).toBe(404);
    expect((await resolve(siteUrl)).status).toBe(404);
    await owner.api.orgs.publishSite(orgId, siteId);
    expect((await q.http('GET', `/v1/spaces/${docs.id}`, { token })).status).toBe(200);
  });

  it('resolves a share-link site only with the key of an active share link', async () => {
    const site = (await owner.api.orgs.createSite(orgId, { title: 'Partners', spaces: [internal.id] })).data;
    await q.http('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token, body: { basename: 'partners', visibility: 'share-link' } });
    await owner.api.orgs.publishSite(orgId, site.id);
    const { data: link } = await owner.api.orgs.createSiteShareLink(orgId, site.id, { name: 'ACME partners' });
    const url = link.urls.published!;
    expect(url).toMatch(new RegExp(`^${q.config.publishedUrl}/acme/partners\\?share=`));
    expect((await resolve(`${q.config.publishedUrl}/acme/partners`)).status).toBe(404);
    expect((await resolve(`${q.config.publishedUrl}/acme/partners?share=wrong-key-wrong-key-wrong-key-00`)).status).toBe(404);
    const ok = await resolve(url);
    expect(ok.body).toMatchObject({ site: site.id, space: internal.id, shareKey: new URL(url).searchParams.get('share') });
    const token = ok.body.apiToken;
    expect((await q.http('GET', `/v1/spaces/${internal.id}`, { token })).status).toBe(200);
    await owner.api.orgs.updateSiteShareLinkById(orgId, site.id, link.id, { active: false });
    expect((await resolve(url)).status).toBe(404);
    expect((await q.http('GET', `/v1/spaces/${internal.id}`, { token })).status).toBe(404);
  });

  it("revokes a share link's site tokens at once when the link is deleted, and leaves the other links' alone", async () => {
    const site = (await owner.api.orgs.createSite(orgId, { title: 'Customers', spaces: [internal.id] })).data;
    await q.http('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token, body: { basename: 'customers', visibility: 'share-link' } });
    await owner.api.orgs.publishSite(orgId, site.id);
    const { data: gone } = await owner.api.orgs.createSiteShareLink(orgId, site.id, { name: 'Former customer' });
    const { data: kept } = await owner.api.orgs.createSiteShareLink(orgId, site.id, { name: 'Customer' });
    const goneToken = await tokenFor(gone.urls.published!);
    const keptToken = await tokenFor(kept.urls.published!);
    expect(decodeJwt(goneToken).shareLink).toBe(gone.id);
    const reads = (token: string) =>
      Promise.all([
        q.http('GET', `/v1/spaces/${internal.id}`, { token }),
        q.http('GET', `/v1/orgs/${orgId}/sites/${site.id}/published`, { token }),
        q.http('POST', `/v1/orgs/${orgId}/sites/${site.id}/search`, { token, body: { query: 'installer' } }),
      ]).then((rs) => rs.map((r) => r.status));
    expect(await reads(goneToken)).toEqual([200, 200, 200]);

    expect((await q.http('DELETE', `/v1/orgs/${orgId}/sites/${site.id}/share-links/${gone.id}`, { token: owner.token })).status).toBe(205);
    // The very next requests: no token issued through the deleted link reads anything.
    expect(await reads(goneToken)).toEqual([404, 404, 404]);
    expect((await resolve(gone.urls.published!)).status).toBe(404);
    expect(await reads(keptToken)).toEqual([200, 200, 200]);
  });

  it('resolves a site space by its path below the site', async () => {
    const site = (await owner.api.orgs.createSite(orgId, { title: 'Two spaces', spaces: [docs.id, internal.id] })).data;
    await q.http('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { token: owner.token, body: { basename: 'two' } });
    await owner.api.orgs.publishSite(orgId, site.id);
    const second = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items[1];
    const r = await resolve(`${q.config.publishedUrl}/acme/two/${second.path}/guides/install`);
    expect(r.body).toMatchObject({ siteSpace: second.id, space: internal.id, pathname: 'guides/install', basePath: `${new URL(q.config.publishedUrl).pathname}/acme/two/${second.path}/` });
    expect(decodeJwt(r.body.apiToken).spaces).toEqual([docs.id, internal.id]);
    // GitBook's renderer also resolves the URL's prefixes: the bare root of a site with several
    // site spaces is not final (a longer URL may name another site space), a page path is.
    expect((await resolve(`${q.config.publishedUrl}/acme/two`)).body).toMatchObject({ siteSpace: expect.any(String), complete: false });
    expect((await resolve(`${q.config.publishedUrl}/acme/two/guides/install`)).body).toMatchObject({ space: docs.id, complete: true });
  });

  it('gives the renderer the published site: the site, its site spaces and a complete customization', async () => {
    const token = await tokenFor(siteUrl);
    const { data } = await q.client(token).orgs.getPublishedContentSite(orgId, siteId);
    expect(data).toMatchObject({
      object: 'published-content-site',
      site: { id: siteId, published: true, urls: { published: siteUrl } },
      structure: { type: 'siteSpaces', structure: [{ object: 'site-space', default: true, space: { id: docs.id }, urls: { published: siteUrl } }] },
      customizations: { site: { styling: { theme: 'clean' }, themes: { default: 'light' } } },
      scripts: [],
    });
    const [siteSpace] = (data.structure as any).structure;
    expect(data.customizations.siteSpaces[siteSpace.id]).toEqual(data.customizations.site);
    // The internal space is in no site: it shows nowhere.
    expect(JSON.stringify(data)).not.toContain(internal.id);
    // A token of this site reads no other site, even of the same organization.
    const other = (await owner.api.orgs.createSite(orgId, { title: 'Other', spaces: [internal.id] })).data;
    await owner.api.orgs.publishSite(orgId, other.id);
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${other.id}/published`, { token })).status).toBe(404);
    // Members and visitors with an API token see a published site too; an unpublished one is a 404.
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${siteId}/published`, { token: owner.token })).status).toBe(200);
    await owner.api.orgs.unpublishSite(orgId, other.id);
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${other.id}/published`, { token: owner.token })).status).toBe(404);
  });

  it("searches the site's spaces and nothing else", async () => {
    const token = await tokenFor(siteUrl);
    const { data } = await q.client(token).orgs.searchSiteContent(orgId, siteId, { query: 'installer', scope: { mode: 'all' } } as any);
    expect(data.items).toEqual([expect.objectContaining({ type: 'space', id: docs.id, pages: [expect.objectContaining({ title: 'Install' })] })]);
    // The internal space has the same words, but is not part of the site.
    expect(JSON.stringify(data)).not.toContain(internal.id);
    const [siteSpace] = (await owner.api.orgs.listSiteSpaces(orgId, siteId)).data.items;
    const scoped = await q.http('POST', `/v1/orgs/${orgId}/sites/${siteId}/search`, { token, body: { query: 'installer', scope: { mode: 'default', currentSiteSpace: siteSpace.id, restrictTo: 'otherSiteSpaces' } } });
    expect(scoped.body.items).toEqual([]);
    expect((await q.http('POST', `/v1/orgs/${orgId}/sites/${siteId}/search`, { token, body: {} })).status).toBe(400);
  });

  it('answers where a redirect of the site leads', async () => {
    const [siteSpace] = (await owner.api.orgs.listSiteSpaces(orgId, siteId)).data.items;
    const pages = (await q.http('GET', `/v1/spaces/${docs.id}/content`, { token: owner.token })).body.pages;
    const install = pages.find((p: any) => p.title === 'Install');
    await owner.api.orgs.createSiteRedirect(orgId, siteId, { source: '/setup', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install.id } });
    await owner.api.orgs.createSiteRedirect(orgId, siteId, { source: '/legacy/*', captureWildcard: true, destination: { kind: 'external', url: 'https://legacy.example.com/docs' } });
    const token = await tokenFor(siteUrl);
    const api = q.client(token);
    expect((await api.orgs.getSiteRedirectBySource(orgId, siteId, { source: '/setup' })).data).toMatchObject({ target: `${siteUrl}/${install.path}`, redirect: { source: '/setup' } });
    expect((await api.orgs.getSiteRedirectBySource(orgId, siteId, { source: '/legacy/a/b' })).data.target).toBe('https://legacy.example.com/docs/a/b');
    expect((await q.http('GET', `/v1/orgs/${orgId}/sites/${siteId}/redirect?source=/nowhere`, { token })).status).toBe(404);
  });
});
