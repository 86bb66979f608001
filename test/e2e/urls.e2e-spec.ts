import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

describe('URL resolution: GET /v1/urls/content (e2e, official client)', () => {
  let q: TestQuire;
  let owner: User;
  let reader: User;
  let outsider: User;
  let org: { id: string; hostname: string };
  let collection: { id: string };
  let space: any;
  let privateSpace: any;

  const resolve = (api: any, url: string) => api.urls.getContentByUrl({ url });
  const raw = (token: string | undefined, url: string) => q.http('GET', `/v1/urls/content?url=${encodeURIComponent(url)}`, { token });
  const withoutUrls = ({ urls: _urls, ...rest }: any) => rest;

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('URL Owner');
    reader = await q.createUser('URL Reader');
    outsider = await q.createUser('URL Outsider');
    org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Published', hostname: `pub-${Date.now().toString(36)}` } })).body;
    await q.http('PATCH', `/v1/orgs/${org.id}/members/${reader.id}`, { token: owner.token, body: { role: 'read' } });
    collection = (await owner.api.orgs.createCollection(org.id, { title: 'Guides' })).data;
    // In a collection it inherits the collection's access: `in-collection`, so it has urls.published.
    space = (await owner.api.orgs.createSpace(org.id, { title: 'Handbook', parent: collection.id } as any)).data;
    privateSpace = (await owner.api.orgs.createSpace(org.id, { title: 'Secret plans' } as any)).data;
    await owner.api.spaces.updateSpaceById(privateSpace.id, { defaultLevel: null } as any);
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it("resolves a space's published URL (as urls.published builds it) and its app URL to the space", async () => {
    expect(space.urls.published).toBe(`${q.config.publishedUrl}/${org.hostname}/${space.id}`);
    const { data: viaPublished } = await resolve(owner.api, space.urls.published);
    const { data: direct } = await owner.api.spaces.getSpaceById(space.id);
    expect(viaPublished).toEqual({ space: direct });
    for (const url of [`${space.urls.published}/`, `${space.urls.published}?utm=1#top`, `${q.config.publishedUrl}/${org.id}/${space.id}`, space.urls.app]) {
      expect((await resolve(owner.api, url)).data).toEqual({ space: direct });
    }
    // Permissions are the caller's own.
    expect((await resolve(reader.api, space.urls.published)).data.space.permissions).toMatchObject({ view: true, edit: false });
  });

  it('resolves a page path of the live revision to the space and the page', async () => {
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    const readme = revision.pages[0] as any;
    const { data } = await resolve(owner.api, `${space.urls.published}/${readme.path}`);
    expect(data.space.id).toBe(space.id);
    expect(data.page).toMatchObject({ id: readme.id, title: readme.title, path: readme.path, type: 'document', kind: 'sheet' });
    expect(data.changeRequest).toBeUndefined();
    const missing = await raw(owner.token, `${space.urls.published}/no/such/page`);
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 404 } } });
  });

  it('resolves change-request URLs (~/changes/<number>[/<path>]) against the change request revision', async () => {
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Add a guide' });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', title: 'Draft guide', document: { markdown: '# Draft guide\n\nSoon.\n' } }],
    } as any);
    const crRevision = (await q.http('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: owner.token })).body;
    const draft = crRevision.pages.find((p: any) => p.title === 'Draft guide');
    expect(draft).toBeDefined();

    const { data: atChange } = await resolve(owner.api, `${space.urls.published}/~/changes/${cr.number}`);
    expect(atChange.space.id).toBe(space.id);
    expect(atChange.changeRequest).toMatchObject({ object: 'change-request', id: cr.id, number: cr.number });
    expect(atChange.page).toBeUndefined();
    const { data: atPage } = await resolve(owner.api, `${space.urls.published}/~/changes/${cr.number}/${draft.path}`);
    expect(atPage.page).toMatchObject({ id: draft.id, title: 'Draft guide' });
    // The app URL of the change request (its urls.app) names the same thing.
    const { data: viaApp } = await resolve(owner.api, `${atChange.changeRequest.urls.app}/${draft.path}`);
    expect(viaApp.page.id).toBe(draft.id);
    // Not in the live revision, and no such change request.
    expect((await raw(owner.token, `${space.urls.published}/${draft.path}`)).status).toBe(404);
    expect((await raw(owner.token, `${space.urls.published}/~/changes/999`)).status).toBe(404);
    expect((await raw(owner.token, `${space.urls.published}/~/revisions/x`)).status).toBe(404);
  });

  it('resolves public and unlisted spaces (and their pages) for an outsider with read access; change requests and private spaces stay hidden', async () => {
    const { data: open } = await owner.api.orgs.createSpace(org.id, { title: 'Open docs' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(open.id, { subject: 'Members only' });
    const published = `${q.config.publishedUrl}/${org.hostname}/${open.id}`;
    const readme = ((await owner.api.spaces.getCurrentRevision(open.id)).data.pages[0]) as any;
    const hidden = { status: 404, body: { error: { code: 404, message: 'No content found at this URL' } } };
    // Private to the organization: nothing for the outsider.
    expect(await raw(outsider.token, `${published}/${readme.path}`)).toMatchObject(hidden);

    for (const visibility of ['public', 'unlisted']) {
      await owner.api.spaces.updateSpaceById(open.id, { visibility } as any);
      const { data: atPage } = await resolve(outsider.api, `${published}/${readme.path}`);
      expect([visibility, atPage.space.id, atPage.space.visibility, atPage.page?.id]).toEqual([visibility, open.id, visibility, readme.id]);
      expect(atPage.space.permissions).toMatchObject({ view: true, edit: false, admin: false, comment: false });
      expect((await resolve(outsider.api, published)).data.space.id).toBe(open.id);
      expect(await raw(outsider.token, `${published}/no/such/page`)).toMatchObject(hidden);
      expect(await raw(outsider.token, `${published}/~/changes/${cr.number}`)).toMatchObject(hidden);
      expect((await raw(owner.token, `${published}/~/changes/${cr.number}`)).status).toBe(200);
      expect((await raw(undefined, `${published}/${readme.path}`)).status).toBe(401);
    }
    await owner.api.spaces.updateSpaceById(open.id, { visibility: 'private' } as any);
    expect(await raw(outsider.token, `${published}/${readme.path}`)).toMatchObject(hidden);
  });

  it('resolves collection URLs (published and app) to the collection', async () => {
    const { data: direct } = await owner.api.collections.getCollectionById(collection.id);
    expect((await resolve(owner.api, `${q.config.publishedUrl}/${org.hostname}/${collection.id}`)).data).toEqual({ collection: direct });
    expect((await resolve(owner.api, direct.urls.app)).data).toEqual({ collection: direct });
    expect((await raw(owner.token, `${q.config.publishedUrl}/${org.hostname}/${collection.id}/page`)).status).toBe(404);
    expect((await raw(outsider.token, direct.urls.app)).status).toBe(404);
  });

  it('resolves private spaces only for callers who can read them; a share key grants nothing more', async () => {
    expect(privateSpace.urls.published).toBeUndefined();
    const url = `${q.config.publishedUrl}/${org.hostname}/${privateSpace.id}`;
    expect(withoutUrls((await resolve(owner.api, url)).data.space)).toEqual(withoutUrls((await owner.api.spaces.getSpaceById(privateSpace.id)).data));
    for (const token of [reader.token, outsider.token]) {
      expect(await raw(token, url)).toMatchObject({ status: 404, body: { error: { code: 404, message: 'No content found at this URL' } } });
      expect((await raw(token, `${url}?shareKey=guess`)).status).toBe(404);
    }
    expect((await raw(owner.token, `${url}?shareKey=guess`)).status).toBe(200);
    // The same answer for content that does not exist at all.
    expect((await raw(owner.token, `${q.config.publishedUrl}/${org.hostname}/NoSuchSpace0000000000`)).body).toEqual((await raw(reader.token, url)).body);
  });

  it('answers 404 for URLs that name nothing (other organization, other host, deleted space) and 400 for malformed ones', async () => {
    const other = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Other', hostname: `oth-${Date.now().toString(36)}` } })).body;
    const cases = [
      `${q.config.publishedUrl}/${other.hostname}/${space.id}`,
      `${q.config.publishedUrl}/no-such-org/${space.id}`,
      `${q.config.publishedUrl}/${org.hostname}`,
      `https://elsewhere.example/${org.hostname}/${space.id}`,
      `${q.config.appUrl}/x/${space.id}`,
    ];
    for (const url of cases) expect({ url, status: (await raw(owner.token, url)).status }).toEqual({ url, status: 404 });

    const doomed = (await owner.api.orgs.createSpace(org.id, { title: 'Doomed', parent: collection.id } as any)).data;
    expect((await resolve(owner.api, doomed.urls.published!)).status).toBe(200);
    await owner.api.spaces.deleteSpaceById(doomed.id);
    expect((await raw(owner.token, doomed.urls.published!)).status).toBe(404);

    for (const url of ['not a url', 'ftp://host/x', `${space.urls.published}/%E0%A4%A`]) {
      const r = await raw(owner.token, url);
      expect({ url, status: r.status, message: r.body.error.message }).toMatchObject({ url, status: 400, message: expect.stringMatching(/url/) });
    }
    expect((await q.http('GET', '/v1/urls/content', { token: owner.token })).status).toBe(400);
    expect((await raw(undefined, space.urls.published)).status).toBe(401);
  });
});
