import { startApi, StartedApi } from '../../apps/api/src/bootstrap';
import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * Published sites are cached in every API process (PublishedSites, a ReadCache evicted by
 * events), for URL resolution and for the site token's checks. What takes a site, a space or a
 * share link away from visitors must still take effect at once: each test resolves and reads
 * (warming the cache), changes the site, and resolves and reads again on the very next request,
 * on the process that took the command and on another API replica of the same installation (no
 * projector of its own, as a scaled-out API runs).
 */
describe('site tokens: what a site stops showing is refused at once, in every process (e2e)', () => {
  let q: TestQuire;
  let replica: StartedApi;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  let sites = 0;

  beforeAll(async () => {
    q = await startTestQuire({ secretKey: 'site-token-revocation-secret-0123456789' });
    replica = await startApi({ ...q.config, port: 0 }, { runProjections: false, redis: true });
    owner = await q.createUser('Publisher');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Acme', hostname: 'acme' } })).body.id;
  });
  afterAll(async () => {
    await replica?.close();
    await q?.close();
  });
  afterEach(() => expect(q.violations).toEqual([]));

  const call = (url: string, method: string, path: string, token?: string, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) headers['content-type'] = 'application/json';
    return fetch(`${url}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  };
  const resolve = async (url: string, siteUrl: string): Promise<{ status: number; body?: any }> => {
    const r = await call(url, 'POST', '/v1/urls/published', undefined, { url: siteUrl });
    return { status: r.status, body: r.status === 200 ? await r.json() : undefined };
  };
  const owned = (method: string, path: string, body?: unknown) => call(q.url, method, path, owner.token, body).then((r) => r.status);

  /** A published site of two fresh spaces; `shareLink` makes it a share-link site with one link. */
  async function publishedSite(opts: { shareLink?: boolean } = {}) {
    const n = ++sites;
    const spaces: string[] = [];
    for (const title of [`Docs ${n}`, `Guides ${n}`]) spaces.push((await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title } })).body.id);
    const site = (await q.http('POST', `/v1/orgs/${orgId}/sites`, { token: owner.token, body: { title: `Site ${n}`, basename: `site-${n}`, spaces } })).body;
    if (opts.shareLink) expect(await owned('PATCH', `/v1/orgs/${orgId}/sites/${site.id}`, { visibility: 'share-link' })).toBe(200);
    expect(await owned('POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`)).toBe(200);
    const siteSpaces = (await q.http('GET', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces`, { token: owner.token })).body.items;
    const link = opts.shareLink ? (await q.http('POST', `/v1/orgs/${orgId}/sites/${site.id}/share-links`, { token: owner.token, body: { name: 'Partners' } })).body : undefined;
    const url: string = link ? link.urls.published : `${q.config.publishedUrl}/acme/site-${n}`;
    return { site: site.id as string, spaces, siteSpaces, link, url, second: `${url.split('?')[0]}/${siteSpaces[1].path}${link ? `?${url.split('?')[1]}` : ''}` };
  }

  for (const where of ['the same process', 'another API process'] as const) {
    const url = () => (where === 'the same process' ? q.url : replica.url);
    /** Resolves `siteUrl` and reads its space with the token, twice (the second from the cache). */
    const warm = async (siteUrl: string) => {
      let token = '';
      for (let i = 0; i < 2; i++) {
        const r = await resolve(url(), siteUrl);
        expect(r.status).toBe(200);
        token = r.body.apiToken;
        expect((await call(url(), 'GET', `/v1/spaces/${r.body.space}`, token)).status).toBe(200);
      }
      return token;
    };
    const readsSpace = async (spaceId: string, token: string) => (await call(url(), 'GET', `/v1/spaces/${spaceId}`, token)).status;

    it(`${where}: an unpublished site resolves no more and its tokens read nothing`, async () => {
      const s = await publishedSite();
      const token = await warm(s.url);
      expect(await owned('POST', `/v1/orgs/${orgId}/sites/${s.site}/unpublish`)).toBe(200);
      expect((await resolve(url(), s.url)).status).toBe(404);
      expect(await readsSpace(s.spaces[0], token)).toBe(404);
      expect((await call(url(), 'GET', `/v1/orgs/${orgId}/sites/${s.site}/published`, token)).status).toBe(404);
    });

    it(`${where}: a site space removed from the site is no longer resolved nor read with its tokens`, async () => {
      const s = await publishedSite();
      const token = await warm(s.second);
      expect(await readsSpace(s.spaces[1], token)).toBe(200);
      expect(await owned('DELETE', `/v1/orgs/${orgId}/sites/${s.site}/site-spaces/${s.siteSpaces[1].id}`)).toBe(205);
      expect(await readsSpace(s.spaces[1], token)).toBe(404);
      // The path named the removed site space: it is now a page path of the default one.
      expect((await resolve(url(), s.second)).body).toMatchObject({ space: s.spaces[0], pathname: s.siteSpaces[1].path });
      expect(await readsSpace(s.spaces[0], token)).toBe(200);
    });

    it(`${where}: a deleted space is no longer shown by its site`, async () => {
      const s = await publishedSite();
      const token = await warm(s.second);
      expect(await owned('DELETE', `/v1/spaces/${s.spaces[1]}`)).toBe(205);
      expect(await readsSpace(s.spaces[1], token)).toBe(404);
      expect((await resolve(url(), s.second)).body).toMatchObject({ space: s.spaces[0] });
    });

    it(`${where}: a share link deactivated, or deleted, revokes the tokens issued through it`, async () => {
      const s = await publishedSite({ shareLink: true });
      const token = await warm(s.url);
      expect(await owned('PATCH', `/v1/orgs/${orgId}/sites/${s.site}/share-links/${s.link.id}`, { active: false })).toBe(200);
      expect((await resolve(url(), s.url)).status).toBe(404);
      expect(await readsSpace(s.spaces[0], token)).toBe(404);
      expect(await owned('PATCH', `/v1/orgs/${orgId}/sites/${s.site}/share-links/${s.link.id}`, { active: true })).toBe(200);
      expect(await readsSpace(s.spaces[0], token)).toBe(200);
      expect(await owned('DELETE', `/v1/orgs/${orgId}/sites/${s.site}/share-links/${s.link.id}`)).toBe(205);
      expect((await resolve(url(), s.url)).status).toBe(404);
      expect(await readsSpace(s.spaces[0], token)).toBe(404);
      expect((await call(url(), 'POST', `/v1/orgs/${orgId}/sites/${s.site}/search`, token, { query: 'docs' })).status).toBe(404);
    });

    it(`${where}: a new basename moves the site at once`, async () => {
      const s = await publishedSite();
      await warm(s.url);
      expect(await owned('PATCH', `/v1/orgs/${orgId}/sites/${s.site}`, { basename: `moved-${s.site.slice(0, 6).toLowerCase()}` })).toBe(200);
      expect((await resolve(url(), s.url)).status).toBe(404);
      expect((await resolve(url(), `${q.config.publishedUrl}/acme/moved-${s.site.slice(0, 6).toLowerCase()}`)).body).toMatchObject({ site: s.site });
    });
  }
});
