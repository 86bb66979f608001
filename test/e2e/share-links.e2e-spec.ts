import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

const SECRET_KEY = 'share-links-secret-key-0123456789abcdef';

/**
 * GitBook's `share-link` visibility: the space's published URL carries a secret key, and the key
 * opens the site (then a cookie scoped to the site keeps it open), getSpaceById's `shareKey` and
 * URL resolution, for anyone, members or not.
 */
describe('share links (e2e)', () => {
  let q: TestQuire;
  let owner: User;
  let outsider: User;
  let org: { id: string; hostname: string };
  let space: any;

  /** A published URL (its path and query) asked of the test server. */
  const site = (url: string | undefined, headers: Record<string, string> = {}) => {
    const { pathname, search } = new URL(url!);
    return fetch(q.url + pathname + search, { headers, redirect: 'manual' });
  };
  const keyOf = (published: string | undefined) => new URL(published!).searchParams.get('share')!;
  const withoutQuery = (url: string | undefined) => url!.split('?')[0];

  beforeAll(async () => {
    q = await startTestQuire({ secretKey: SECRET_KEY });
    owner = await q.createUser('Share Owner');
    outsider = await q.createUser('Share Outsider');
    org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Sharing', hostname: `share-${Date.now().toString(36)}` } })).body;
    space = (await owner.api.orgs.createSpace(org.id, { title: 'Partner guide' } as any)).data;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('gives a share-link space a published URL with a key, and no public URL', async () => {
    expect(space.visibility).toBe('private');
    expect(space.urls.published).toBeUndefined();
    const { data } = await owner.api.spaces.updateSpaceById(space.id, { visibility: 'share-link' } as any);
    expect(data.visibility).toBe('share-link');
    expect(data.urls.public).toBeUndefined();
    expect(data.urls.published).toMatch(/\?share=[\w-]{32}$/);
    expect(withoutQuery(data.urls.published)).toBe(`${q.config.publishedUrl}/${org.hostname}/${space.id}`);
    space = data;
  });

  it('serves the site to a request with the key, then keeps it open through a cookie scoped to the site', async () => {
    const published = space.urls.published as string;
    expect((await site(withoutQuery(published))).status).toBe(404);
    expect((await site(`${withoutQuery(published)}?share=${'x'.repeat(32)}`)).status).toBe(404);

    const opened = await site(published);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('x-robots-tag')).toBe('noindex');
    expect(opened.headers.get('cache-control')).toMatch(/^private/);
    const cookie = opened.headers.get('set-cookie')!;
    expect(cookie).toContain(`quire_share_${space.id}=${keyOf(published)}`);
    expect(cookie).toContain(`Path=${new URL(published).pathname}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(await opened.text()).toContain('Partner guide');

    // The site's own links and its search carry no key: the cookie opens them.
    const jar = { cookie: cookie.split(';')[0] };
    expect((await site(withoutQuery(published), jar)).status).toBe(200);
    expect((await site(`${withoutQuery(published)}/~/search.json?query=guide`, jar)).status).toBe(200);
    expect((await site(`${withoutQuery(published)}/~/search.json?query=guide`)).status).toBe(404);
  });

  it("opens the space through getSpaceById's shareKey, read-only, for a user with no role on it", async () => {
    const key = keyOf(space.urls.published);
    const hidden = await q.http('GET', `/v1/spaces/${space.id}`, { token: outsider.token });
    expect(hidden).toMatchObject({ status: 404, body: { error: { code: 404 } } });
    const wrong = await q.http('GET', `/v1/spaces/${space.id}?shareKey=${'y'.repeat(32)}`, { token: outsider.token });
    expect(wrong.status).toBe(404);
    const { data } = await outsider.api.spaces.getSpaceById(space.id, { shareKey: key });
    expect(data.id).toBe(space.id);
    expect(data.permissions).toMatchObject({ view: true, edit: false, admin: false, merge: false });
    // The key reads; it writes nothing.
    const patch = await q.http('PATCH', `/v1/spaces/${space.id}?shareKey=${key}`, { token: outsider.token, body: { title: 'Mine now' } });
    expect(patch.status).toBe(404);
  });

  it('resolves the share link (and its pages) through GET /v1/urls/content for anyone holding it', async () => {
    const resolve = (url: string) => q.http('GET', `/v1/urls/content?url=${encodeURIComponent(url)}`, { token: outsider.token });
    const viaLink = await resolve(space.urls.published);
    expect(viaLink.status).toBe(200);
    expect(viaLink.body.space).toMatchObject({ id: space.id, visibility: 'share-link', permissions: { view: true, edit: false } });
    expect((await resolve(withoutQuery(space.urls.published))).status).toBe(404);
    // Change requests stay with members, key or not.
    const cr = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'Draft' })).data;
    const atChange = await resolve(`${withoutQuery(space.urls.published)}/~/changes/${cr.number}?share=${keyOf(space.urls.published)}`);
    expect(atChange.status).toBe(404);
  });

  it('revokes old links when the space becomes share-link again after another visibility', async () => {
    const before = space.urls.published as string;
    await owner.api.spaces.updateSpaceById(space.id, { visibility: 'private' } as any);
    expect((await site(before)).status).toBe(404);
    const { data } = await owner.api.spaces.updateSpaceById(space.id, { visibility: 'share-link' } as any);
    expect(keyOf(data.urls.published)).not.toBe(keyOf(before));
    expect((await site(before)).status).toBe(404);
    expect((await site(data.urls.published)).status).toBe(200);
    const old = await q.http('GET', `/v1/spaces/${space.id}?shareKey=${keyOf(before)}`, { token: outsider.token });
    expect(old.status).toBe(404);
  });
});

describe('share links without QUIRE_SECRET_KEY (e2e)', () => {
  let q: TestQuire;
  afterAll(async () => {
    await q?.close();
  });

  it('refuses the share-link visibility with 422: there is no key to derive links from', async () => {
    q = await startTestQuire({ secretKey: undefined });
    const owner = await q.createUser('Keyless Owner');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Keyless' } })).body;
    const space = (await owner.api.orgs.createSpace(org.id, { title: 'Guide' } as any)).data;
    const r = await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { visibility: 'share-link' } });
    expect(r).toMatchObject({ status: 422, body: { error: { code: 422, message: expect.stringContaining('QUIRE_SECRET_KEY') } } });
    expect((await owner.api.spaces.getSpaceById(space.id)).data.visibility).toBe('private');
  });
});
