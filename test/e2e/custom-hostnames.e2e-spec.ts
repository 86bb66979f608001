import { GitBookAPI } from '@gitbook/api';
import { validateResponse } from '../support/openapi';
import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** Quire's own published host: three labels, so shaped like a custom hostname. */
const PUBLISHED_URL = 'https://docs.quire-test.example/sites';

describe('custom hostnames (e2e: official client, raw HTTP with a Host header)', () => {
  let q: TestQuire;
  let owner: User;
  let reader: User;
  let outsider: User;
  let org: { id: string; hostname: string };
  let otherOrg: { id: string };
  let collection: { id: string };
  let space: any;
  let privateSpace: any;
  let pages: Record<string, any>;
  let firstPageTitle: string;
  let crNumber: number;
  let crPage: any;
  const host = `docs.acme-${Date.now().toString(36)}.example.com`;

  const hostUrl = (h: string, path = '') => `https://${h}${path}`;
  /** GitBook's getContentByUrl through the official client, for the owner. */
  const contentAt = async (url: string): Promise<any> => (await owner.api.urls.getContentByUrl({ url })).data;
  const resolve = (token: string, url: string) => q.http('GET', `/v1/urls/content?url=${encodeURIComponent(url)}`, { token });
  /** Raw GitBook operations: the answer must validate like the client's. */
  const checked = async (method: string, path: string, opts: Parameters<TestQuire['http']>[2] = {}) => {
    const res = await q.http(method, path, opts);
    const { errors } = validateResponse(method, path.replace(/^\/v1/, '').split('?')[0], res.status, res.body);
    q.violations.push(...errors.map((e) => `${method} ${path} -> ${res.status}: ${e}`));
    return res;
  };
  const setCustomHostname = (api: GitBookAPI, organizationId: string, customHostname: string | null) =>
    api.orgs.updateOrganizationById(organizationId, { customHostname } as any);
  const patchOrg = (token: string, organizationId: string, body: unknown) => checked('PATCH', `/v1/orgs/${organizationId}`, { token, body });
  const site = (path: string, h = host, headers: Record<string, string> = {}) => q.http('GET', path, { headers: { host: h, ...headers } });

  beforeAll(async () => {
    q = await startTestQuire({ publishedUrl: PUBLISHED_URL });
    owner = await q.createUser('Host Owner');
    reader = await q.createUser('Host Reader');
    outsider = await q.createUser('Host Outsider');
    org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Acme', hostname: `acme-${Date.now().toString(36)}` } })).body;
    otherOrg = (await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Elsewhere' } })).body;
    await q.http('PATCH', `/v1/orgs/${org.id}/members/${reader.id}`, { token: owner.token, body: { role: 'create' } });
    collection = (await owner.api.orgs.createCollection(org.id, { title: 'Guides' })).data;
    space = (await owner.api.orgs.createSpace(org.id, { title: 'Handbook' } as any)).data;
    privateSpace = (await owner.api.orgs.createSpace(org.id, { title: 'Internal' } as any)).data;

    // Live content: Guide (first page) > Install (with an image and a link), and FAQ.
    const { data: seed } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Seed' });
    await owner.api.spaces.updateChangeRequestContent(space.id, seed.id, {
      changes: [
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nStart here.\n' } },
        { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nQuestions about winget.\n' } },
        { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: PNG }] },
      ],
    } as any);
    const seeded = (await owner.api.spaces.getRevisionOfChangeRequestById(space.id, seed.id)).data.pages as any[];
    const [guideId, faqId] = ['Guide', 'FAQ'].map((title) => seeded.find((p) => p.title === title).id);
    const fileId = (await q.http('GET', `/v1/spaces/${space.id}/change-requests/${seed.id}/content/files`, { token: owner.token })).body.items[0].id;
    await owner.api.spaces.updateChangeRequestContent(space.id, seed.id, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Install',
          into: guideId,
          document: { markdown: `# Install\n\nUse winget. See [the FAQ](/pages/${faqId}).\n\n![Dot](/files/${fileId})\n` },
        },
      ],
    } as any);
    expect((await owner.api.spaces.mergeChangeRequest(space.id, seed.id)).data.result).toBe('merge');
    pages = {};
    const walk = (list: any[]) => list.forEach((p) => ((pages[p.title] = p), walk(p.pages ?? [])));
    const live = (await owner.api.spaces.getCurrentRevision(space.id)).data.pages as any[];
    walk(live);
    firstPageTitle = live[0].title;

    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Draft' });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: '# Draft\n' } }] } as any);
    crNumber = cr.number;
    crPage = (await owner.api.spaces.getRevisionOfChangeRequestById(space.id, cr.id)).data.pages.find((p: any) => p.title === 'Draft');
    space = (await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { visibility: 'public' } })).body;
  }, 120_000);
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  describe('on the organization', () => {
    it('is set by an admin (PATCH /v1/orgs/{id}, lower-cased) and shown as customHostname to members', async () => {
      const { data: updated } = await setCustomHostname(owner.api, org.id, host.toUpperCase());
      expect(updated).toMatchObject({ object: 'organization', id: org.id, customHostname: host });
      expect((await reader.api.orgs.getOrganizationById(org.id)).data.customHostname).toBe(host);
      // Setting it again changes nothing.
      expect((await setCustomHostname(owner.api, org.id, host)).data.customHostname).toBe(host);
    });

    it('refuses members below admin (403), non-members (404), malformed hostnames and other settings (400)', async () => {
      expect(await patchOrg(reader.token, org.id, { customHostname: 'help.acme.example.com' })).toMatchObject({ status: 403, body: { error: { code: 403 } } });
      expect(await patchOrg(outsider.token, org.id, { customHostname: 'help.acme.example.com' })).toMatchObject({ status: 404, body: { error: { code: 404 } } });
      expect((await patchOrg(reader.token, org.id, { customHostname: null })).status).toBe(403);
      for (const customHostname of ['acme.example', 'docs.acme.example.com:8443', 'https://docs.acme.example.com', 'docs_acme.example.com', 42]) {
        expect({ customHostname, status: (await patchOrg(owner.token, org.id, { customHostname })).status }).toEqual({ customHostname, status: 400 });
      }
      expect((await patchOrg(owner.token, org.id, { title: 'Renamed' })).status).toBe(400);
      expect((await owner.api.orgs.getOrganizationById(org.id)).data).toMatchObject({ title: 'Acme', customHostname: host });
    });

    it('is unique across the instance: another organization gets 409, also at creation (which then creates nothing)', async () => {
      const taken = await patchOrg(outsider.token, otherOrg.id, { customHostname: host });
      expect(taken).toMatchObject({ status: 409, body: { error: { code: 409, message: expect.stringContaining(host) } } });
      const hostname = `fresh-${Date.now().toString(36)}`;
      const created = await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Copycat', hostname, customHostname: host } });
      expect(created).toMatchObject({ status: 409, body: { error: { code: 409 } } });
      // The refused creation kept neither name: its organization hostname is still free.
      expect((await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Copycat', hostname } })).status).toBe(201);
      // Refused for its organization hostname, a creation gives its custom hostname back at once.
      const spare = `spare-at-creation.${host}`;
      expect((await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Again', hostname, customHostname: spare } })).status).toBe(409);
      expect((await setCustomHostname(outsider.api, otherOrg.id, spare)).data.customHostname).toBe(spare);
      await setCustomHostname(outsider.api, otherOrg.id, null);
      // Quire's own hosts are taken too.
      expect((await patchOrg(outsider.token, otherOrg.id, { customHostname: new URL(PUBLISHED_URL).hostname })).status).toBe(409);
    });

    it('is created with an organization (POST /v1/orgs) and follows it when changed: the old one is free again', async () => {
      const first = `a.${host}`;
      const second = `b.${host}`;
      const created = await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: 'Founded with one', customHostname: first } });
      expect(created).toMatchObject({ status: 201, body: { customHostname: first } });
      expect((await setCustomHostname(outsider.api, created.body.id, second)).data.customHostname).toBe(second);
      await expect(outsider.api.customHostnames.getCustomHostname(first)).rejects.toMatchObject({ code: 404 });
      expect((await setCustomHostname(outsider.api, otherOrg.id, first)).data.customHostname).toBe(first);
      expect((await patchOrg(owner.token, org.id, { customHostname: second })).status).toBe(409);
      expect((await setCustomHostname(outsider.api, otherOrg.id, null)).data.customHostname).toBeUndefined();
    });

    it('has one owner under concurrency: of organizations racing for a hostname exactly one wins', async () => {
      const racers = await Promise.all(
        Array.from({ length: 4 }, async (_, i) => (await q.http('POST', '/v1/orgs', { token: outsider.token, body: { title: `Racer ${i}` } })).body.id as string),
      );
      for (let round = 0; round < 3; round++) {
        const contested = `race-${round}.${host}`;
        const answers = await Promise.all(racers.map((id) => patchOrg(outsider.token, id, { customHostname: contested })));
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
        const winner = racers[answers.findIndex((a) => a.status === 200)];
        expect((await outsider.api.customHostnames.getCustomHostname(contested)).data.target).toEqual({ type: 'organization', organization: winner });
      }
      // One organization switching between two hostnames concurrently ends on one of them; the other is free.
      const [x, y] = [`x.${host}`, `y.${host}`];
      const both = await Promise.all([x, y].map((h) => patchOrg(outsider.token, racers[0], { customHostname: h })));
      expect(both.map((a) => a.status)).toEqual([200, 200]);
      const kept = (await outsider.api.orgs.getOrganizationById(racers[0])).data.customHostname;
      expect([x, y]).toContain(kept);
      const freed = kept === x ? y : x;
      expect((await patchOrg(outsider.token, racers[1], { customHostname: freed })).status).toBe(200);
    });
  });

  describe('GitBook operations on /v1/custom-hostnames/{hostname}', () => {
    it('reads it (members), as active, pointing at the organization; 404 for non-members and unknown hostnames', async () => {
      const expected = {
        object: 'custom-hostname',
        hostname: host,
        target: { type: 'organization', organization: org.id },
        isActive: true,
        status: 'live',
        urls: { location: `${q.config.publicUrl}/v1/custom-hostnames/${host}` },
      };
      expect((await owner.api.customHostnames.getCustomHostname(host)).data).toEqual(expected);
      expect((await reader.api.customHostnames.getCustomHostname(host.toUpperCase())).data).toEqual(expected);
      for (const [api, h] of [[outsider.api, host], [owner.api, `nothing.${host}`], [owner.api, 'not a hostname']] as const) {
        await expect(api.customHostnames.getCustomHostname(h)).rejects.toMatchObject({ code: 404 });
      }
    });

    it('revalidates DNS for admins (204, nothing to check), 403 for other members, 404 for non-members', async () => {
      expect((await owner.api.customHostnames.dnsRevalidateCustomHostname(host)).status).toBe(204);
      await expect(reader.api.customHostnames.dnsRevalidateCustomHostname(host)).rejects.toMatchObject({ code: 403 });
      await expect(outsider.api.customHostnames.dnsRevalidateCustomHostname(host)).rejects.toMatchObject({ code: 404 });
    });

    it('removes it for admins (205, then 204), 403 for other members, 204 with no effect for non-members; it can be set again', async () => {
      const spare = `spare.${host}`;
      await setCustomHostname(outsider.api, otherOrg.id, spare);
      expect((await reader.api.customHostnames.removeCustomHostname(spare)).status).toBe(204);
      await expect(reader.api.customHostnames.removeCustomHostname(host)).rejects.toMatchObject({ code: 403 });
      expect((await outsider.api.customHostnames.getCustomHostname(spare)).data.hostname).toBe(spare);
      expect((await outsider.api.customHostnames.removeCustomHostname(spare)).status).toBe(205);
      expect((await outsider.api.customHostnames.removeCustomHostname(spare)).status).toBe(204);
      await expect(outsider.api.customHostnames.getCustomHostname(spare)).rejects.toMatchObject({ code: 404 });
      expect((await outsider.api.orgs.getOrganizationById(otherOrg.id)).data.customHostname).toBeUndefined();
      // Free for anyone now, the organization that had it included.
      expect((await setCustomHostname(owner.api, org.id, spare)).data.customHostname).toBe(spare);
      expect((await setCustomHostname(owner.api, org.id, null)).data.customHostname).toBeUndefined();
      expect((await setCustomHostname(owner.api, org.id, null)).data.customHostname).toBeUndefined();
      expect((await setCustomHostname(owner.api, org.id, host)).data.customHostname).toBe(host);
    });
  });

  describe('published URLs', () => {
    it('are <scheme of QUIRE_PUBLISHED_URL>//<custom hostname>/<spaceId> for the spaces of an organization that has one', async () => {
      const { data: shown } = await owner.api.spaces.getSpaceById(space.id);
      expect(shown.urls).toMatchObject({ published: hostUrl(host, `/${space.id}`), public: hostUrl(host, `/${space.id}`) });
      const { data: inCollection } = await owner.api.orgs.createSpace(org.id, { title: 'Filed', parent: collection.id } as any);
      expect(inCollection).toMatchObject({ visibility: 'in-collection', urls: { published: hostUrl(host, `/${inCollection.id}`) } });
      expect(inCollection.urls.public).toBeUndefined();
      const listed = (await owner.api.orgs.listSpacesInOrganizationById(org.id)).data.items.find((s) => s.id === space.id)!;
      expect(listed.urls.published).toBe(hostUrl(host, `/${space.id}`));
      // Without one, the path form.
      const { data: elsewhere } = await outsider.api.orgs.createSpace(otherOrg.id, { title: 'Plain' } as any);
      await outsider.api.spaces.updateSpaceById(elsewhere.id, { visibility: 'public' } as any);
      expect((await outsider.api.spaces.getSpaceById(elsewhere.id)).data.urls.published).toBe(`${PUBLISHED_URL}/${otherOrg.id}/${elsewhere.id}`);
    });

    it('resolve through GET /v1/urls/content on the custom hostname: space, page path, change request (and its page), collection', async () => {
      const direct = (await owner.api.spaces.getSpaceById(space.id)).data;
      const base = hostUrl(host, `/${space.id}`);
      expect(await contentAt(base)).toEqual({ space: direct });
      for (const url of [`${base}/`, `http://${host}/${space.id}?utm=1#top`, `https://${host.toUpperCase()}/${space.id}`]) {
        expect(await contentAt(url)).toEqual({ space: direct });
      }
      const atPage = await contentAt(`${base}/${pages.Install.path}`);
      expect(atPage.space.id).toBe(space.id);
      expect(atPage.page).toMatchObject({ id: pages.Install.id, path: 'guide/install', title: 'Install' });
      const atChange = await contentAt(`${base}/~/changes/${crNumber}`);
      expect(atChange.changeRequest).toMatchObject({ object: 'change-request', number: crNumber });
      expect(atChange.page).toBeUndefined();
      expect((await contentAt(`${base}/~/changes/${crNumber}/${crPage.path}`)).page).toMatchObject({ id: crPage.id, title: 'Draft' });
      const { data: directCollection } = await owner.api.collections.getCollectionById(collection.id);
      expect(await contentAt(hostUrl(host, `/${collection.id}`))).toEqual({ collection: directCollection });
      // The path form keeps resolving.
      expect((await contentAt(`${PUBLISHED_URL}/${org.hostname}/${space.id}/${pages.Install.path}`)).page.id).toBe(pages.Install.id);
    });

    it('answer 404 for unknown hosts, other organizations, missing pages and private spaces the caller cannot read', async () => {
      await setCustomHostname(outsider.api, otherOrg.id, `other.${host}`);
      const cases = [
        hostUrl(`unknown.${host}`, `/${space.id}`),
        hostUrl(`other.${host}`, `/${space.id}`),
        hostUrl(host, `/${space.id}/no/such/page`),
        hostUrl(host, `/${space.id}/~/changes/999`),
        hostUrl(host, `/${collection.id}/page`),
        hostUrl(host, '/'),
        `https://docs.quire-test.example/${space.id}`,
      ];
      for (const url of cases) expect({ url, status: (await resolve(owner.token, url)).status }).toEqual({ url, status: 404 });
      expect((await resolve(outsider.token, hostUrl(host, `/${privateSpace.id}`))).status).toBe(404);
      expect((await resolve(owner.token, hostUrl(host, `/${privateSpace.id}`))).status).toBe(200);
      await setCustomHostname(outsider.api, otherOrg.id, null);
    });
  });

  describe('the published site on the custom hostname (Host header)', () => {
    beforeAll(async () => {
      await setCustomHostname(owner.api, org.id, host);
    });

    it('serves the first page at /<spaceId>, with links, files and canonical URLs on the custom hostname', async () => {
      const res = await site(`/${space.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const b: string = res.body;
      expect(b).toContain(`<h1>${firstPageTitle}</h1>`);
      expect(b).toContain(`<a href="/${space.id}" aria-current="page" class="active">${firstPageTitle}</a>`);
      expect(b).toContain(`<a href="/${space.id}/guide/install">Install</a>`);
      expect(b).toContain(`<link rel="canonical" href="${hostUrl(host, `/${space.id}`)}">`);

      const install = await site(`/${space.id}/guide/install`);
      expect(install.status).toBe(200);
      expect(install.body).toContain(`<link rel="canonical" href="${hostUrl(host, `/${space.id}/guide/install`)}">`);
      expect(install.body).toContain(`<a href="/${space.id}/faq">the FAQ</a>`);
      const src = /<img src="([^"]+)"/.exec(install.body)![1].replace(/&amp;/g, '&');
      expect(src).toMatch(new RegExp(`^/${space.id}/~/files/[\\w-]+/dot\\.png\\?v=[0-9a-f]{12}$`));
      const file = await site(src);
      expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/png']);
      const head = await q.http('HEAD', `/${space.id}/guide/install`, { headers: { host } });
      expect([head.status, head.headers.get('etag')]).toEqual([200, install.headers.get('etag')]);
      // Revalidation by ETag, as on the path form.
      const cached = await site(`/${space.id}/guide/install`, host, { 'if-none-match': install.headers.get('etag')! });
      expect(cached.status).toBe(304);
    });

    it('shows only links that URL resolution resolves, on the custom hostname, to the same page', async () => {
      const b: string = (await site(`/${space.id}/guide/install`)).body;
      const hrefs = [...new Set([...b.matchAll(/href="([^"#]+)(?:#[^"]*)?"/g)].map((m) => m[1]))].filter((h) => h.startsWith(`/${space.id}`) && !h.includes('/~/'));
      expect(hrefs.length).toBeGreaterThanOrEqual(3);
      for (const href of hrefs) {
        const resolved = await resolve(owner.token, hostUrl(host, href));
        expect({ href, status: resolved.status }).toEqual({ href, status: 200 });
        const shown = await site(href);
        expect(shown.status).toBe(200);
        const title = /<h1>(.*?)<\/h1>/.exec(shown.body)![1];
        if (href === `/${space.id}`) expect(resolved.body.page).toBeUndefined();
        else expect(resolved.body.page.title).toBe(title);
      }
    });

    it('searches with results on the custom hostname', async () => {
      let items: any[] = [];
      for (const deadline = Date.now() + 30_000; items.length === 0 && Date.now() < deadline; ) {
        const res = await site(`/${space.id}/~/search.json?query=winget`);
        expect(res.status).toBe(200);
        items = res.body.items;
        if (items.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
      expect(items.map((i) => i.url)).toContain(`/${space.id}/guide/install`);
      const results = await site(`/${space.id}/~/search?q=winget`);
      expect(results.status).toBe(200);
      expect(results.body).toContain(`<a href="/${space.id}/guide/install"`);
    });

    it("answers 404 for other organizations' spaces, private spaces and the host's root", async () => {
      const { data: foreign } = await outsider.api.orgs.createSpace(otherOrg.id, { title: 'Foreign' } as any);
      await outsider.api.spaces.updateSpaceById(foreign.id, { visibility: 'public' } as any);
      const unknown = await site('/NoSuchSpace0000000000');
      expect(unknown.status).toBe(404);
      for (const path of [`/${foreign.id}`, `/${privateSpace.id}`, `/${privateSpace.id}/guide`, '/', `/${space.id}/~/files/nope/x.png`]) {
        expect({ path, status: (await site(path)).status }).toEqual({ path, status: 404 });
      }
      expect((await site(`/${privateSpace.id}`)).body).toBe(unknown.body);
      expect((await site(`/${foreign.id}/~/search.json?query=x`)).body).toEqual({ error: { code: 404, message: 'No published site here' } });
    });

    it('keeps the API on every host, and every other host as it was (the path form, also for this organization)', async () => {
      expect((await q.http('GET', '/v1/user', { token: owner.token, headers: { host } })).body).toMatchObject({ object: 'user', id: owner.id });
      expect((await q.http('GET', '/health/live', { headers: { host } })).status).toBe(200);
      expect((await q.http('GET', `/v1/spaces/${space.id}`, { headers: { host } })).status).toBe(401);
      const pathForm = `${new URL(PUBLISHED_URL).pathname}/${org.hostname}/${space.id}`;
      for (const h of ['docs.quire-test.example', `unknown.${host}`, '127.0.0.1']) {
        const res = await site(`${pathForm}/guide/install`, h);
        expect({ h, status: res.status }).toEqual({ h, status: 200 });
        // Links stay on the form asked for; the canonical URL is the custom hostname's.
        expect(res.body).toContain(`<a href="${pathForm}/faq">the FAQ</a>`);
        expect(res.body).toContain(`<link rel="canonical" href="${hostUrl(host, `/${space.id}/guide/install`)}">`);
        expect((await site(`/${space.id}`, h)).status).toBe(404);
      }
      // The custom hostname does not serve the path form.
      expect((await site(pathForm)).status).toBe(404);
    });

    it('stops serving when the custom hostname is removed, and the published URLs go back to the path form', async () => {
      expect((await owner.api.customHostnames.removeCustomHostname(host)).status).toBe(205);
      expect((await site(`/${space.id}`)).status).toBe(404);
      expect((await owner.api.spaces.getSpaceById(space.id)).data.urls.published).toBe(`${PUBLISHED_URL}/${org.hostname}/${space.id}`);
      expect((await resolve(owner.token, hostUrl(host, `/${space.id}`))).status).toBe(404);
      expect((await setCustomHostname(owner.api, org.id, host)).data.customHostname).toBe(host);
      expect((await site(`/${space.id}`)).status).toBe(200);
    });
  });
});
