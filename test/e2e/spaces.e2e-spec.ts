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

  it('takes only real emoji: decoded code points that are pictographic, regional indicators or a keycap', async () => {
    for (const emoji of ['abc', 'ff', '1234', '#', '1f3fd', '110000']) {
      const r = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { emoji } });
      expect([emoji, r.status, r.body.error?.message]).toEqual([emoji, 400, expect.stringMatching(/emoji/)]);
    }
    for (const emoji of ['1f600', '1f468-200d-1f4bb', '1f1eb-1f1f7', '0023-fe0f-20e3', '🎉']) {
      const r = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { emoji } });
      expect([emoji, r.status, r.body.emoji]).toEqual([emoji, 201, emoji]);
    }
  });

  it('counts title characters in code points, as GitBook does (an emoji is one)', async () => {
    const fifty = '😀'.repeat(50);
    const created = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: '😀'.repeat(26) } });
    expect([created.status, created.body.title]).toEqual([201, '😀'.repeat(26)]);
    const patched = await q.http('PATCH', `/v1/spaces/${created.body.id}`, { token: owner.token, body: { title: fifty } });
    expect([patched.status, patched.body.title]).toEqual([200, fifty]);
    expect((await q.http('PATCH', `/v1/spaces/${created.body.id}`, { token: owner.token, body: { title: fifty + '😀' } })).status).toBe(400);
    const copy = await q.http('POST', `/v1/spaces/${created.body.id}/duplicate`, { token: owner.token });
    expect([copy.status, copy.body.title]).toEqual([201, `Copy of ${'😀'.repeat(42)}`]);
    const collection = await q.http('POST', `/v1/orgs/${orgId}/collections`, { token: owner.token, body: { title: '😀'.repeat(26) } });
    expect([collection.status, collection.body.title]).toEqual([201, '😀'.repeat(26)]);
    const renamed = await q.http('PATCH', `/v1/collections/${collection.body.id}`, { token: owner.token, body: { title: fifty } });
    expect([renamed.status, renamed.body.title]).toEqual([200, fifty]);
  });

  it('shows the visibility that was set, in a collection too, with urls.published for every visibility but private', async () => {
    const { data: collection } = await owner.api.orgs.createCollection(orgId, { title: 'Visibility' });
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'V', parent: collection.id });
    expect(space.visibility).toBe('in-collection');
    const priv = await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { visibility: 'private' } });
    expect([priv.body.visibility, priv.body.urls.published]).toEqual(['private', undefined]);
    expect((await owner.api.spaces.getSpaceById(space.id)).data.visibility).toBe('private');
    const back = await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { visibility: 'in-collection' } });
    expect([back.body.visibility, back.body.urls.published]).toEqual(['in-collection', expect.stringContaining(space.id)]);
    // The reverse: a collection space that does not inherit its access, set to in-collection.
    const { data: own } = await owner.api.orgs.createSpace(orgId, { title: 'Own level', parent: collection.id });
    const level = await q.http('PATCH', `/v1/spaces/${own.id}`, { token: owner.token, body: { defaultLevel: 'read' } });
    expect(level.body.visibility).toBe('private');
    const set = await q.http('PATCH', `/v1/spaces/${own.id}`, { token: owner.token, body: { visibility: 'in-collection' } });
    expect([set.status, set.body.visibility, set.body.urls.published]).toEqual([200, 'in-collection', expect.stringContaining(own.id)]);
    const pub = await q.http('PATCH', `/v1/spaces/${own.id}`, { token: owner.token, body: { visibility: 'public' } });
    expect([pub.body.visibility, pub.body.urls.public]).toEqual(['public', pub.body.urls.published]);
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

  it('answers 400 "Invalid page cursor" on every paginated list for a cursor of the wrong shape or element types', async () => {
    const org = await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Cursor Org' } });
    const collection = await q.http('POST', `/v1/orgs/${org.body.id}/collections`, { token: owner.token, body: { title: 'C' } });
    const space = await q.http('POST', `/v1/orgs/${org.body.id}/spaces`, { token: owner.token, body: { title: 'S', parent: collection.body.id } });
    const cr = await q.http('POST', `/v1/spaces/${space.body.id}/change-requests`, { token: owner.token, body: { subject: 'cursor' } });
    expect([space.status, cr.status]).toEqual([201, 201]);
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const lists: [string, unknown[][]][] = [];
    const timeId = [['not-a-date', 'x'], ['2020-13-45T00:00:00.000Z', 'x'], ['0000-01-01T00:00:00.000Z', 'x'], [1, 2], [{ a: 1 }, 'x'], ['2020-01-01T00:00:00.000Z', 3], ['2020-01-01T00:00:00.000Z'], []];
    const id = [[1], [{ a: 1 }], [null], [''], ['a', 'b'], []];
    for (const path of [`/v1/orgs/${org.body.id}/spaces`, `/v1/collections/${collection.body.id}/spaces`, `/v1/orgs/${org.body.id}/collections`, `/v1/spaces/${space.body.id}/change-requests`, `/v1/spaces/${space.body.id}/git/imports`])
      lists.push([path, timeId]);
    for (const path of [
      `/v1/orgs/${org.body.id}/members`,
      `/v1/spaces/${space.body.id}/permissions/aggregate`,
      `/v1/spaces/${space.body.id}/permissions/users`,
      `/v1/collections/${collection.body.id}/permissions/aggregate`,
      `/v1/collections/${collection.body.id}/permissions/users`,
      `/v1/integrations`,
      `/v1/spaces/${space.body.id}/content/files`,
      `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content/files`,
    ])
      lists.push([path, id]);
    const search = [['all', 'x', 's', 'p', 1], ['nope', 1, 's', 'p', 1], ['all', 1, 's', 'p', 0], [1, 2, 3, 4, 5]];
    lists.push([`/v1/spaces/${space.body.id}/search?query=x`, search], [`/v1/orgs/${org.body.id}/search?query=x`, search]);
    const failures: string[] = [];
    for (const [path, bad] of lists) {
      for (const page of [...bad.map(enc), 'garbage!', enc({ a: 1 })]) {
        const r = await q.http('GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}`, { token: owner.token });
        if (r.status !== 400 || r.body?.error?.message !== 'Invalid page cursor') failures.push(`${path} ${Buffer.from(page, 'base64url').toString()} -> ${r.status} ${JSON.stringify(r.body)}`);
      }
      // A well-formed cursor still pages.
      const ok = await q.http('GET', `${path}${path.includes('?') ? '&' : '?'}page=${enc(bad === timeId ? ['2020-01-01T00:00:00.000Z', 'x'] : bad === id ? ['a'] : ['all', 1, 's', 'p', 1])}`, { token: owner.token });
      if (ok.status !== 200) failures.push(`${path} (valid cursor) -> ${ok.status} ${JSON.stringify(ok.body)}`);
    }
    expect(failures).toEqual([]);
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
