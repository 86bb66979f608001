import { GitBookAPI } from '@gitbook/api';
import { Role, roleAtLeast, ROLES } from '@quire/domain';
import { ADMIN_TOKEN, startTestQuire, TestQuire } from '../support/quire-app';
import { replay } from '../../apps/cli/src/replay/replay.command';

type User = Awaited<ReturnType<TestQuire['createUser']>>;
type Who = Role | 'outsider';
const WHO: Who[] = [...ROLES, 'outsider'];

/** The HTTP status of a client call, whether it succeeded or threw GitBookAPIError. */
async function status(call: Promise<{ status: number }>): Promise<number> {
  try {
    return (await call).status;
  } catch (err: any) {
    if (typeof err?.code === 'number') return err.code;
    throw err;
  }
}

describe('permissions (e2e, official client)', () => {
  let q: TestQuire;
  let owner: User;
  let orgId: string;
  const users = {} as Record<Who, User>;

  const addMember = async (org: string, user: User, role: Role) => {
    await owner.api.orgs.updateMemberInOrganizationById(org, user.id, { role: role as any });
  };

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('Org Owner');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Permissions Org' } })).body.id;
    for (const who of WHO) {
      users[who] = await q.createUser(`As ${who}`);
      if (who !== 'outsider') await addMember(orgId, users[who], who);
    }
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('walks the permission table of docs/permissions.md with a user of each role and an outsider', async () => {
    const bystander = await q.createUser('Bystander');
    await addMember(orgId, bystander, 'read');
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Shared' })).data;
    const collection = (await owner.api.orgs.createCollection(orgId, { title: 'Shared collection' })).data;
    const freshSpace = async () => (await owner.api.orgs.createSpace(orgId, { title: 'Fresh' })).data.id;
    const deletedSpace = async () => {
      const id = await freshSpace();
      await owner.api.spaces.deleteSpaceById(id);
      return id;
    };

    /** Each operation, the role it needs (or 'member' / 'anyone'), its success status, and how to call it. */
    const table: Array<{ op: string; needs: Role | 'anyone'; ok: number; call: (api: GitBookAPI, me: User) => Promise<{ status: number }> }> = [
      { op: 'GET /user', needs: 'anyone', ok: 200, call: (api) => api.user.getAuthenticatedUser() },
      { op: 'GET /users/{userId}', needs: 'anyone', ok: 200, call: (api) => api.users.getUserById(owner.id) },
      { op: 'GET /orgs/{orgId}', needs: 'read', ok: 200, call: (api) => api.orgs.getOrganizationById(orgId) },
      { op: 'GET /orgs/{orgId}/members', needs: 'read', ok: 200, call: (api) => api.orgs.listMembersInOrganizationById(orgId) },
      {
        op: 'PATCH /orgs/{orgId}/members/{userId}',
        needs: 'admin',
        ok: 200,
        call: (api) => api.orgs.updateMemberInOrganizationById(orgId, bystander.id, { role: 'read' as any }),
      },
      { op: 'POST /orgs/{orgId}/spaces', needs: 'create', ok: 201, call: (api) => api.orgs.createSpace(orgId, { title: 'Mine' }) },
      {
        op: 'POST /orgs/{orgId}/spaces (parent collection)',
        needs: 'create',
        ok: 201,
        call: (api) => api.orgs.createSpace(orgId, { title: 'Mine', parent: collection.id }),
      },
      { op: 'GET /orgs/{orgId}/spaces', needs: 'read', ok: 200, call: (api) => api.orgs.listSpacesInOrganizationById(orgId) },
      { op: 'POST /orgs/{orgId}/collections', needs: 'create', ok: 201, call: (api) => api.orgs.createCollection(orgId, { title: 'Mine' }) },
      { op: 'GET /orgs/{orgId}/collections', needs: 'read', ok: 200, call: (api) => api.orgs.listCollectionsInOrganizationById(orgId) },
      { op: 'GET /spaces/{spaceId}', needs: 'read', ok: 200, call: (api) => api.spaces.getSpaceById(space.id) },
      { op: 'PATCH /spaces/{spaceId}', needs: 'admin', ok: 200, call: (api) => api.spaces.updateSpaceById(space.id, { title: 'Shared' } as any) },
      { op: 'POST /spaces/{spaceId}/duplicate', needs: 'create', ok: 201, call: (api) => api.spaces.duplicateSpace(space.id) },
      { op: 'DELETE /spaces/{spaceId}', needs: 'admin', ok: 205, call: async (api) => api.spaces.deleteSpaceById(await freshSpace()) },
      { op: 'POST /spaces/{spaceId}/restore', needs: 'admin', ok: 200, call: async (api) => api.spaces.restoreSpace(await deletedSpace()) },
      {
        op: 'POST /spaces/{spaceId}/permissions',
        needs: 'admin',
        ok: 204,
        call: (api) => api.spaces.inviteToSpace(space.id, { role: 'read' as any, users: [bystander.id] }),
      },
      {
        op: 'PATCH /spaces/{spaceId}/permissions/users/{userId}',
        needs: 'admin',
        ok: 204,
        call: (api) => api.spaces.updateUserPermissionInSpace(space.id, bystander.id, { role: 'comment' as any }),
      },
      {
        op: 'DELETE /spaces/{spaceId}/permissions/users/{userId}',
        needs: 'admin',
        ok: 205,
        call: async (api) => {
          await owner.api.spaces.inviteToSpace(space.id, { role: 'read' as any, users: [bystander.id] });
          return api.spaces.removeUserFromSpace(space.id, bystander.id);
        },
      },
      { op: 'GET /spaces/{spaceId}/permissions/aggregate', needs: 'read', ok: 200, call: (api) => api.spaces.listPermissionsAggregateInSpace(space.id) },
      { op: 'GET /spaces/{spaceId}/permissions/users', needs: 'read', ok: 200, call: (api) => api.spaces.listUserPermissionsInSpace(space.id) },
      { op: 'GET /collections/{collectionId}', needs: 'read', ok: 200, call: (api) => api.collections.getCollectionById(collection.id) },
      {
        op: 'PATCH /collections/{collectionId}',
        needs: 'admin',
        ok: 200,
        call: (api) => api.collections.updateCollectionById(collection.id, { description: 'Shared' }),
      },
      { op: 'GET /collections/{collectionId}/spaces', needs: 'read', ok: 200, call: (api) => api.collections.listSpacesInCollectionById(collection.id) },
      {
        op: 'POST /collections/{collectionId}/permissions',
        needs: 'admin',
        ok: 204,
        call: (api) => api.collections.inviteToCollection(collection.id, { role: 'read' as any, users: [bystander.id] }),
      },
      {
        op: 'PATCH /collections/{collectionId}/permissions/users/{userId}',
        needs: 'admin',
        ok: 204,
        call: (api) => api.collections.updateUserPermissionInCollection(collection.id, bystander.id, { role: 'comment' as any }),
      },
      {
        op: 'DELETE /collections/{collectionId}/permissions/users/{userId}',
        needs: 'admin',
        ok: 205,
        call: async (api) => {
          await owner.api.collections.inviteToCollection(collection.id, { role: 'read' as any, users: [bystander.id] });
          return api.collections.removeUserFromCollection(collection.id, bystander.id);
        },
      },
      {
        op: 'GET /collections/{collectionId}/permissions/aggregate',
        needs: 'read',
        ok: 200,
        call: (api) => api.collections.listPermissionsAggregateInCollection(collection.id),
      },
    ];

    const mismatches: string[] = [];
    for (const row of table) {
      for (const who of WHO) {
        const expected =
          row.needs === 'anyone' ? row.ok : who === 'outsider' ? 404 : roleAtLeast(who, row.needs) ? row.ok : 403;
        const got = await status(row.call(users[who].api, users[who]));
        if (got !== expected) mismatches.push(`${row.op} as ${who}: expected ${expected}, got ${got}`);
      }
    }
    // Only the instance administrator creates users.
    for (const who of WHO) {
      const r = await q.http('POST', '/v1/users', { token: users[who].token, body: { displayName: 'X', email: `x-${who}@example.com` } });
      if (r.status !== 403) mismatches.push(`POST /users as ${who}: expected 403, got ${r.status}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('shows each role its exact permissions on a space and a collection, and lists everyone in the aggregate', async () => {
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Permissions object' })).data;
    const collection = (await owner.api.orgs.createCollection(orgId, { title: 'Permissions object' })).data;
    for (const who of ROLES) {
      const { data } = await users[who].api.spaces.getSpaceById(space.id);
      const at = (r: Role) => roleAtLeast(who, r);
      expect([who, data.permissions]).toEqual([
        who,
        {
          view: true,
          access: true,
          admin: at('admin'),
          viewInviteLinks: at('admin'),
          edit: at('edit'),
          triggerGitSync: at('edit'),
          comment: at('comment'),
          merge: at('review'),
          review: at('review'),
          installIntegration: at('admin'),
        },
      ]);
      const { data: c } = await users[who].api.collections.getCollectionById(collection.id);
      expect([who, c.permissions]).toEqual([who, { view: true, admin: at('admin'), viewInviteLinks: at('admin'), create: at('create') }]);
    }
    const { data: all } = await users.read.api.spaces.listPermissionsAggregateInSpace(space.id, { limit: 1000 });
    const byUser = Object.fromEntries(all.items.map((p) => [p.user.id, p.permission]));
    for (const who of ROLES) expect([who, byUser[users[who].id]]).toEqual([who, who]);
    expect(byUser[owner.id]).toBe('admin');
    expect(byUser[users.outsider.id]).toBeUndefined();
    // Emails stay private to their owner.
    expect(all.items.find((p) => p.user.id === users.read.id)?.user.email).toBeDefined();
    expect(all.items.find((p) => p.user.id === owner.id)?.user.email).toBeUndefined();
  });

  it('resolves default levels along nested collections; organization admins stay admin', async () => {
    const outer = (await owner.api.orgs.createCollection(orgId, { title: 'Outer' })).data;
    const inner = (await owner.api.orgs.createCollection(orgId, { title: 'Inner', parent: outer.id })).data;
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Deep', parent: inner.id })).data;
    const roleOf = async (who: Who) => {
      try {
        const { data } = await users[who].api.spaces.getSpaceById(space.id);
        return data.permissions.admin ? 'admin' : data.permissions.review ? 'review+' : data.permissions.edit ? 'edit' : data.permissions.comment ? 'comment' : 'read';
      } catch (err: any) {
        return err.code;
      }
    };
    expect(await roleOf('edit')).toBe('edit');

    // Outer says no access: members lose what membership gave them, admins keep admin.
    await owner.api.collections.updateCollectionById(outer.id, { defaultLevel: null } as any);
    expect(await roleOf('edit')).toBe(404);
    expect(await roleOf('read')).toBe(404);
    expect(await roleOf('admin')).toBe('admin');
    expect((await owner.api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 })).data.items.map((s) => s.id)).toContain(space.id);
    expect((await users.edit.api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 })).data.items.map((s) => s.id)).not.toContain(space.id);
    await expect(users.edit.api.collections.getCollectionById(inner.id)).rejects.toMatchObject({ code: 404 });

    // The nearer collection gives everyone comment.
    await owner.api.collections.updateCollectionById(inner.id, { defaultLevel: 'comment' as any });
    expect(await roleOf('read')).toBe('comment');
    expect(await roleOf('edit')).toBe('comment');

    // A grant on the outer collection reaches the space inside; the strongest grant wins.
    await owner.api.collections.inviteToCollection(outer.id, { role: 'edit' as any, users: [users.read.id] });
    expect(await roleOf('read')).toBe('edit');
    await owner.api.spaces.inviteToSpace(space.id, { role: 'read' as any, users: [users.read.id] });
    expect(await roleOf('read')).toBe('edit');
    await owner.api.spaces.updateUserPermissionInSpace(space.id, users.read.id, { role: 'review' as any });
    expect(await roleOf('read')).toBe('review+');

    // The space's own level beats its collections'.
    await owner.api.spaces.updateSpaceById(space.id, { defaultLevel: 'read' } as any);
    expect(await roleOf('comment')).toBe('read');
    await owner.api.spaces.updateSpaceById(space.id, { defaultLevel: 'inherit' } as any);

    // Everything inherits again: members get their organization role.
    await owner.api.collections.updateCollectionById(inner.id, { defaultLevel: 'inherit' });
    await owner.api.collections.updateCollectionById(outer.id, { defaultLevel: 'inherit' });
    expect(await roleOf('comment')).toBe('comment');
    expect(await roleOf('create')).toBe('review+');
  });

  it('lets guests (non-members) use what they were invited to, and nothing else', async () => {
    const guest = await q.createUser('Guest');
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Guest space' })).data;
    await expect(guest.api.spaces.getSpaceById(space.id)).rejects.toMatchObject({ code: 404 });
    await owner.api.spaces.inviteToSpace(space.id, { role: 'edit' as any, users: [guest.id] });
    const { data } = await guest.api.spaces.getSpaceById(space.id);
    expect(data.permissions).toMatchObject({ view: true, edit: true, admin: false });
    await expect(guest.api.spaces.updateSpaceById(space.id, { title: 'nope' } as any)).rejects.toMatchObject({ code: 403 });
    await expect(guest.api.spaces.duplicateSpace(space.id)).rejects.toMatchObject({ code: 403 });
    await expect(guest.api.orgs.listSpacesInOrganizationById(orgId)).rejects.toMatchObject({ code: 404 });
    const { data: agg } = await owner.api.spaces.listPermissionsAggregateInSpace(space.id, { role: 'edit' as any, limit: 1000 });
    expect(agg.items.map((p) => p.user.id)).toEqual(expect.arrayContaining([guest.id, users.edit.id]));
    expect(agg.items.every((p) => p.permission === 'edit')).toBe(true);
    const { data: grants } = await owner.api.spaces.listUserPermissionsInSpace(space.id);
    expect(grants.items.map((p) => [p.user.id, p.permission]).sort()).toEqual([[guest.id, 'edit'], [owner.id, 'admin']].sort());

    // Removing answers 205, then 204 when there is nothing left to remove.
    expect((await owner.api.spaces.removeUserFromSpace(space.id, guest.id)).status).toBe(205);
    expect((await owner.api.spaces.removeUserFromSpace(space.id, guest.id)).status).toBe(204);
    await expect(guest.api.spaces.getSpaceById(space.id)).rejects.toMatchObject({ code: 404 });
    // A null role removes a grant too.
    await owner.api.spaces.inviteToSpace(space.id, { role: 'read' as any, users: [guest.id] });
    await owner.api.spaces.updateUserPermissionInSpace(space.id, guest.id, { role: null } as any);
    await expect(guest.api.spaces.getSpaceById(space.id)).rejects.toMatchObject({ code: 404 });
  });

  it('validates invitations', async () => {
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Invites' })).data;
    const post = (body: unknown) => q.http('POST', `/v1/spaces/${space.id}/permissions`, { token: owner.token, body });
    expect((await post({ role: 'read', users: ['nobodyHere'] })).status).toBe(404);
    expect((await post({ role: 'read', teams: ['someTeam'] })).status).toBe(404);
    expect((await post({ role: 'boss', users: [users.read.id] })).status).toBe(400);
    expect((await post({ role: 'read' })).status).toBe(400);
    expect((await post({ role: 'read', users: [] })).status).toBe(400);
    expect((await post({ users: [users.read.id] })).status).toBe(400);
    const patch = await q.http('PATCH', `/v1/spaces/${space.id}/permissions/users/nobodyHere`, { token: owner.token, body: { role: 'read' } });
    expect(patch.status).toBe(404);
    const badRole = await q.http('PATCH', `/v1/spaces/${space.id}/permissions/users/${users.read.id}`, { token: owner.token, body: { role: 'x' } });
    expect(badRole.status).toBe(400);
  });

  it('paginates the aggregate with a keyset cursor and filters by role', async () => {
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Aggregate Org' } })).body.id;
    const members: User[] = [];
    for (let i = 0; i < 7; i++) {
      const u = await q.createUser(`Agg ${i}`);
      await addMember(org, u, i % 2 ? 'edit' : 'read');
      members.push(u);
    }
    const space = (await owner.api.orgs.createSpace(org, { title: 'Counted' })).data;
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await owner.api.spaces.listPermissionsAggregateInSpace(space.id, { limit: 3, page });
      expect(data.items.length).toBeLessThanOrEqual(3);
      seen.push(...data.items.map((p) => p.user.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual([owner.id, ...members.map((m) => m.id)].sort());
    const { data: editors } = await owner.api.spaces.listPermissionsAggregateInSpace(space.id, { role: 'edit' as any });
    expect(editors.items.map((p) => p.user.id).sort()).toEqual(members.filter((_, i) => i % 2).map((m) => m.id).sort());
    expect((await q.http('GET', `/v1/spaces/${space.id}/permissions/aggregate?role=boss`, { token: owner.token })).status).toBe(400);
    const collection = (await owner.api.orgs.createCollection(org, { title: 'Counted too' })).data;
    await owner.api.collections.updateCollectionById(collection.id, { defaultLevel: null } as any);
    const { data: restricted } = await owner.api.collections.listPermissionsAggregateInCollection(collection.id);
    expect(restricted.items.map((p) => [p.user.id, p.permission])).toEqual([[owner.id, 'admin']]);
  });

  it('makes the instance administrator admin everywhere', async () => {
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Instance admin' })).data;
    await owner.api.spaces.updateSpaceById(space.id, { defaultLevel: null } as any);
    const { data } = await q.admin.spaces.getSpaceById(space.id);
    expect(data.permissions.admin).toBe(true);
    const del = await q.http('DELETE', `/v1/spaces/${space.id}`, { token: ADMIN_TOKEN });
    expect(del.status).toBe(205);
  });

  it('rebuilds the spaces, collections and permissions read models from events into the same rows', async () => {
    const outer = (await owner.api.orgs.createCollection(orgId, { title: 'Replay outer' })).data;
    const inner = (await owner.api.orgs.createCollection(orgId, { title: 'Replay inner', parent: outer.id })).data;
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Replay', parent: inner.id })).data;
    await owner.api.collections.updateCollectionById(outer.id, { defaultLevel: null, description: 'x' } as any);
    await owner.api.spaces.inviteToSpace(space.id, { role: 'comment' as any, users: [users.read.id, users.outsider.id] });
    await owner.api.spaces.removeUserFromSpace(space.id, users.outsider.id);
    await owner.api.spaces.updateSpaceById(space.id, { emoji: '1f600', editMode: 'locked' } as any);
    await owner.api.spaces.deleteSpaceById((await owner.api.spaces.duplicateSpace(space.id)).data.id);
    const tables = ['rm_spaces', 'rm_collections', 'rm_access_nodes', 'rm_permission_grants'];
    const snapshot = async () => {
      const out: Record<string, string[]> = {};
      for (const t of tables) out[t] = (await q.started.runtime.db.query(`SELECT * FROM ${t}`)).rows.map((r) => JSON.stringify(r)).sort();
      return out;
    };
    const before = await snapshot();
    await replay(q.started.runtime, ['spaces', 'collections', 'permissions'], { write: () => true } as any);
    expect(await snapshot()).toEqual(before);
    const { data } = await users.read.api.spaces.getSpaceById(space.id);
    expect(data.permissions).toMatchObject({ comment: true, edit: false });
  });
});
