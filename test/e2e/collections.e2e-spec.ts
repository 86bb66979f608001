import { startTestQuire, TestQuire } from '../support/quire-app';

describe('collections (e2e, official client)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('Collection Owner');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Collections Org' } })).body.id;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('creates a collection with a Location header and every required field', async () => {
    const res = await owner.api.orgs.createCollection(orgId, { title: 'Engineering' });
    expect(res.status).toBe(201);
    const c = res.data;
    expect(res.headers.get('location')).toBe(`${q.config.publicUrl}/v1/collections/${c.id}`);
    expect(c).toEqual({
      object: 'collection',
      id: expect.stringMatching(/^[a-zA-Z0-9]{20}$/),
      title: 'Engineering',
      organization: orgId,
      defaultLevel: 'inherit',
      urls: { location: `${q.config.publicUrl}/v1/collections/${c.id}`, app: `${q.config.appUrl}/c/${c.id}` },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    expect((await owner.api.collections.getCollectionById(c.id)).data).toEqual(c);
    expect((await owner.api.orgs.createCollection(orgId, {})).data.title).toBe('Untitled');
  });

  it('nests collections and validates the parent', async () => {
    const { data: outer } = await owner.api.orgs.createCollection(orgId, { title: 'Outer' });
    const { data: inner } = await owner.api.orgs.createCollection(orgId, { title: 'Inner', parent: outer.id });
    expect(inner.parent).toBe(outer.id);
    const missing = await q.http('POST', `/v1/orgs/${orgId}/collections`, { token: owner.token, body: { parent: 'nope' } });
    expect(missing).toMatchObject({ status: 400, body: { error: { code: 400, message: expect.stringMatching(/parent/) } } });
    const long = await q.http('POST', `/v1/orgs/${orgId}/collections`, { token: owner.token, body: { title: 'z'.repeat(51) } });
    expect(long.status).toBe(400);
    // Nesting is bounded.
    let parent = inner.id;
    for (let depth = 3; depth <= 10; depth++) parent = (await owner.api.orgs.createCollection(orgId, { title: `D${depth}`, parent })).data.id;
    const tooDeep = await q.http('POST', `/v1/orgs/${orgId}/collections`, { token: owner.token, body: { title: 'D11', parent } });
    expect(tooDeep).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/at most 10/) } } });
  });

  it('updates title, description and default level, and validates them', async () => {
    const { data: created } = await owner.api.orgs.createCollection(orgId, { title: 'To update' });
    const { data: updated } = await owner.api.collections.updateCollectionById(created.id, { title: 'Updated', description: 'All the things', defaultLevel: 'comment' as any });
    expect(updated).toMatchObject({ title: 'Updated', description: 'All the things', defaultLevel: 'comment' });
    const { data: none } = await owner.api.collections.updateCollectionById(created.id, { defaultLevel: null } as any);
    expect(none.defaultLevel).toBeNull();
    for (const body of [{ title: 'x'.repeat(51) }, { description: 'd'.repeat(101) }, { defaultLevel: 'boss' }, { title: 5 }]) {
      const r = await q.http('PATCH', `/v1/collections/${created.id}`, { token: owner.token, body });
      expect([r.status, body]).toEqual([400, body]);
    }
    await expect(owner.api.collections.getCollectionById('nope')).rejects.toMatchObject({ code: 404 });
  });

  it('lists collections across pages, nested or top-level only', async () => {
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Listing Org' } })).body.id;
    const top: string[] = [];
    for (let i = 0; i < 3; i++) top.push((await owner.api.orgs.createCollection(org, { title: `Top ${i}` })).data.id);
    const child = (await owner.api.orgs.createCollection(org, { title: 'Child', parent: top[0] })).data.id;
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await owner.api.orgs.listCollectionsInOrganizationById(org, { limit: 1, page });
      expect(data.items.length).toBeLessThanOrEqual(1);
      seen.push(...data.items.map((c) => c.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual([...top, child]);
    const { data: topOnly } = await owner.api.orgs.listCollectionsInOrganizationById(org, { nested: false });
    expect(topOnly.items.map((c) => c.id)).toEqual(top);
  });

  it('lists the spaces of a collection across pages', async () => {
    const { data: c } = await owner.api.orgs.createCollection(orgId, { title: 'With spaces' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await owner.api.orgs.createSpace(orgId, { title: `In ${i}`, parent: c.id })).data.id);
    await owner.api.orgs.createSpace(orgId, { title: 'Outside' });
    const { data: first } = await owner.api.collections.listSpacesInCollectionById(c.id, { limit: 2 });
    const { data: second } = await owner.api.collections.listSpacesInCollectionById(c.id, { limit: 2, page: first.next!.page });
    expect([...first.items, ...second.items].map((s) => s.id)).toEqual(ids);
    expect(second.next).toBeUndefined();
    expect(first.items[0]).toMatchObject({ object: 'space', parent: c.id });
  });
});
