import { ADMIN_TOKEN, startTestQuire, TestQuire } from '../support/quire-app';

describe('spaces (e2e, official client)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('Space Owner');
    const org = await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Spaces Org', hostname: `spaces-${Date.now()}` } });
    orgId = org.body.id;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('creates a space with every field GitBook requires, a Location header, and ignores unknown properties', async () => {
    const res = await owner.api.orgs.createSpace(orgId, { title: 'Handbook', emoji: '1f4d8', language: 'fr', editMode: 'live', somethingElse: 42 } as any);
    expect(res.status).toBe(201);
    const space = res.data;
    expect(res.headers.get('location')).toBe(`${q.config.publicUrl}/v1/spaces/${space.id}`);
    expect(space).toEqual({
      object: 'space',
      id: expect.stringMatching(/^[a-zA-Z0-9]{20}$/),
      title: 'Handbook',
      emoji: '1f4d8',
      visibility: 'private',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: { location: `${q.config.publicUrl}/v1/spaces/${space.id}`, app: `${q.config.appUrl}/s/${space.id}` },
      organization: orgId,
      language: 'fr',
      revision: expect.stringMatching(/^[a-zA-Z0-9_-]+$/),
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true,
        access: true,
        admin: true,
        viewInviteLinks: true,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: true,
        review: true,
        installIntegration: true,
      },
    });
    const { data: again } = await owner.api.spaces.getSpaceById(space.id, { shareKey: 'anything' });
    expect(again).toEqual(space);
  });

  it('creates an Untitled space from an empty body and records empty: true for the content side', async () => {
    const { data } = await owner.api.orgs.createSpace(orgId, {} as any);
    expect(data.title).toBe('Untitled');
    expect(data.emoji).toBe('');
    const { data: empty } = await owner.api.orgs.createSpace(orgId, { title: 'Empty', empty: true } as any);
    const [created] = await q.started.runtime.store.readStream(`space-${empty.id}`);
    expect(created).toMatchObject({ type: 'SpaceCreated', data: { empty: true, initialRevision: empty.revision, createdBy: owner.id } });
  });

  it('rejects bad create bodies with 400 naming the field', async () => {
    const bad = async (body: unknown, field: RegExp) => {
      const r = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({ code: 400, message: expect.stringMatching(field) });
    };
    await bad({ title: 'x'.repeat(51) }, /title/);
    await bad({ title: 12 }, /title/);
    await bad({ language: 'klingon' }, /language/);
    await bad({ editMode: 'open' }, /editMode/);
    await bad({ emoji: 'not an emoji' }, /emoji/);
    await bad({ parent: 'no-such-collection' }, /parent/);
    await bad({ parent: 'bad id!' }, /parent/);
    const malformed = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, rawBody: '{' });
    expect(malformed.status).toBe(400);
  });

  it('puts a space in a collection of the same organization only', async () => {
    const { data: collection } = await owner.api.orgs.createCollection(orgId, { title: 'Guides' });
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'In collection', parent: collection.id });
    expect(space).toMatchObject({ parent: collection.id, visibility: 'in-collection' });
    const org = await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Other Org' } });
    const other = await q.http('POST', `/v1/orgs/${org.body.id}/spaces`, { token: owner.token, body: { parent: collection.id } });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/another organization/);
  });

  it('publishes in-collection spaces under the organization hostname', async () => {
    const { data: collection } = await owner.api.orgs.createCollection(orgId, { title: 'Published' });
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Pub', parent: collection.id });
    const org = await q.http('GET', `/v1/orgs/${orgId}`, { token: owner.token });
    expect(space.urls.published).toBe(`${q.config.publishedUrl}/${org.body.hostname}/${space.id}`);
    expect(space.urls.public).toBeUndefined();
  });

  it('answers 404 for unknown spaces and 400 for malformed ids', async () => {
    await expect(owner.api.spaces.getSpaceById('doesNotExist')).rejects.toMatchObject({ code: 404 });
    expect((await q.http('GET', '/v1/spaces/bad%20id', { token: owner.token })).status).toBe(400);
    expect((await q.http('GET', '/v1/spaces/x', {})).status).toBe(401);
  });

  it('updates settings and validates them', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Before', emoji: '1f600' });
    await new Promise((r) => setTimeout(r, 5));
    const { data: updated } = await owner.api.spaces.updateSpaceById(space.id, {
      title: 'After',
      editMode: 'locked',
      defaultLevel: 'read',
      language: 'de',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: [owner.id] }] },
      icon: 'https://example.com/icon.png',
    } as any);
    expect(updated).toMatchObject({
      title: 'After',
      editMode: 'locked',
      defaultLevel: 'read',
      language: 'de',
      emoji: '',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: [owner.id] }] },
      urls: { icon: 'https://example.com/icon.png' },
      permissions: { admin: true, edit: false, merge: false },
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(space.updatedAt));
    expect(updated.createdAt).toBe(space.createdAt);

    const { data: emoji } = await owner.api.spaces.updateSpaceById(space.id, { emoji: '🎉', defaultLevel: null } as any);
    expect(emoji.emoji).toBe('🎉');
    expect(emoji.urls.icon).toBeUndefined();
    expect(emoji.defaultLevel).toBeNull();
    const { data: cleared } = await owner.api.spaces.updateSpaceById(space.id, { emoji: null, defaultLevel: 'inherit' } as any);
    expect(cleared).toMatchObject({ emoji: '', defaultLevel: 'inherit' });
    const { data: unchanged } = await owner.api.spaces.updateSpaceById(space.id, { unknownThing: true } as any);
    expect(unchanged.updatedAt).toBe(cleared.updatedAt);

    for (const body of [
      { title: 'y'.repeat(51) },
      { editMode: 'frozen' },
      { defaultLevel: 'owner' },
      { language: 'xx' },
      { mergeRules: { type: 'sometimes' } },
      { mergeRules: { type: 'rules', rules: [{ rule: 'nope' }] } },
      { emoji: '🎉', icon: 'https://example.com/x.png' },
      { icon: 'not a url' },
    ]) {
      const r = await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body });
      expect([r.status, body]).toEqual([400, body]);
    }
  });

  it('duplicates a space with its settings and parent, recording where it came from', async () => {
    const { data: collection } = await owner.api.orgs.createCollection(orgId, { title: 'Dups' });
    const { data: source } = await owner.api.orgs.createSpace(orgId, { title: 'A title that is exactly fifty characters long!!!!!', parent: collection.id, emoji: '1f600', language: 'es' as any });
    await owner.api.spaces.updateSpaceById(source.id, { editMode: 'locked', mergeRules: { type: 'none' } } as any);
    const res = await owner.api.spaces.duplicateSpace(source.id);
    expect(res.status).toBe(201);
    const copy = res.data;
    expect(res.headers.get('location')).toBe(`${q.config.publicUrl}/v1/spaces/${copy.id}`);
    expect(copy).toMatchObject({
      title: `Copy of ${source.title}`.slice(0, 50),
      parent: collection.id,
      emoji: '1f600',
      language: 'es',
      editMode: 'locked',
      mergeRules: { type: 'none' },
      organization: orgId,
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.revision).not.toBe(source.revision);
    const [created] = await q.started.runtime.store.readStream(`space-${copy.id}`);
    expect(created.data).toMatchObject({ duplicatedFrom: source.id, duplicatedFromRevision: source.revision, initialRevision: copy.revision });
  });

  it('deletes (205), reports nothing to delete (204), hides deleted spaces and restores them', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Doomed' });
    const del = await owner.api.spaces.deleteSpaceById(space.id);
    expect(del.status).toBe(205);
    await expect(owner.api.spaces.getSpaceById(space.id)).rejects.toMatchObject({ code: 404 });
    await expect(owner.api.spaces.updateSpaceById(space.id, { title: 'x' } as any)).rejects.toMatchObject({ code: 404 });
    const { data: list } = await owner.api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 });
    expect(list.items.map((s) => s.id)).not.toContain(space.id);
    expect((await owner.api.spaces.deleteSpaceById(space.id)).status).toBe(204);

    const restored = await owner.api.spaces.restoreSpace(space.id);
    expect(restored.status).toBe(200);
    expect(restored.data).toMatchObject({ id: space.id, title: 'Doomed' });
    expect(restored.data.deletedAt).toBeUndefined();
    expect((await owner.api.spaces.getSpaceById(space.id)).data.id).toBe(space.id);
    expect((await owner.api.spaces.restoreSpace(space.id)).status).toBe(200);
    await expect(owner.api.spaces.deleteSpaceById('doesNotExist')).rejects.toMatchObject({ code: 404 });
    await expect(owner.api.spaces.restoreSpace('doesNotExist')).rejects.toMatchObject({ code: 404 });
  });

  it('lists an organization\'s spaces in creation order across pages, with stable cursors', async () => {
    const org = await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Paging Org' } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await owner.api.orgs.createSpace(org.body.id, { title: `S${i}` })).data.id);
    const { data: first } = await owner.api.orgs.listSpacesInOrganizationById(org.body.id, { limit: 2 });
    expect(first.items.map((s) => s.id)).toEqual(ids.slice(0, 2));
    // A space created (and one deleted) between pages does not shift the cursor.
    await owner.api.spaces.deleteSpaceById(ids[0]);
    ids.push((await owner.api.orgs.createSpace(org.body.id, { title: 'late' })).data.id);
    const { data: second } = await owner.api.orgs.listSpacesInOrganizationById(org.body.id, { limit: 2, page: first.next!.page });
    expect(second.items.map((s) => s.id)).toEqual(ids.slice(2, 4));
    const { data: third } = await owner.api.orgs.listSpacesInOrganizationById(org.body.id, { limit: 2, page: second.next!.page });
    expect(third.items.map((s) => s.id)).toEqual(ids.slice(4, 6));
    expect(third.next).toBeUndefined();
    expect(third.items[0].permissions.admin).toBe(true);

    expect((await q.http('GET', `/v1/orgs/${org.body.id}/spaces?page=garbage`, { token: owner.token })).status).toBe(400);
    expect((await q.http('GET', `/v1/orgs/${org.body.id}/spaces?limit=1001`, { token: owner.token })).status).toBe(400);
    expect((await q.http('GET', `/v1/orgs/nope/spaces`, { token: owner.token })).status).toBe(404);
  });

  it('follows SpaceRevisionChanged from the content side', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Revisions' });
    const runtime = q.started.runtime;
    const { position } = await runtime.store.append(`space-${space.id}`, [{ type: 'SpaceRevisionChanged', data: { spaceId: space.id, revision: 'rev2' } }], 'any');
    await runtime.executor.waitFor(position, ['SpaceRevisionChanged']);
    expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe('rev2');
  });

  it('lets the instance administrator see and manage every space', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Admin sees' });
    const { data } = await q.admin.spaces.getSpaceById(space.id);
    expect(data.permissions.admin).toBe(true);
    const r = await q.http('PATCH', `/v1/spaces/${space.id}`, { token: ADMIN_TOKEN, body: { title: 'Renamed by admin' } });
    expect(r.body.title).toBe('Renamed by admin');
  });
});
