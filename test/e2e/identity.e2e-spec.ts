import { GitBookAPIError } from '@gitbook/api';
import { ADMIN_TOKEN, startTestQuire, TestQuire } from '../support/quire-app';

describe('identity and organizations (e2e, official client)', () => {
  let q: TestQuire;
  beforeAll(async () => {
    q = await startTestQuire();
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('the instance administrator exists from first start and GET /v1/user returns it', async () => {
    const { data } = await q.admin.user.getAuthenticatedUser();
    expect(data).toMatchObject({ object: 'user', id: 'instance-admin', displayName: 'Instance administrator' });
  });

  it('creates a user and a token shown once; the token authenticates as that user', async () => {
    const alice = await q.createUser('Alice');
    expect(alice.token).toMatch(/^gb_api_[A-Za-z0-9_-]{40,}$/);
    const { data } = await alice.api.user.getAuthenticatedUser();
    expect(data).toMatchObject({ id: alice.id, displayName: 'Alice' });
    const pub = await q.client(alice.token).users.getUserById(alice.id);
    expect(pub.data.id).toBe(alice.id);
  });

  it('refuses user creation by anyone but the instance admin, and duplicate emails', async () => {
    const bob = await q.createUser('Bob');
    const r = await q.http('POST', '/v1/users', { token: bob.token, body: { displayName: 'X', email: 'x@example.com' } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: { code: 403, message: expect.any(String) } });
    const first = await q.http('POST', '/v1/users', { token: ADMIN_TOKEN, body: { displayName: 'D', email: 'dup@example.com' } });
    expect(first.status).toBe(201);
    const dup = await q.http('POST', '/v1/users', { token: ADMIN_TOKEN, body: { displayName: 'D2', email: 'DUP@example.com' } });
    expect(dup.status).toBe(409);
    const bad = await q.http('POST', '/v1/users', { token: ADMIN_TOKEN, body: { displayName: 'D3', email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/email/);
  });

  it('answers 401 with GitBook error bodies for missing or unknown tokens', async () => {
    await expect(q.client().user.getAuthenticatedUser()).rejects.toMatchObject({ code: 401 });
    const err = await q.client('gb_api_nope').user.getAuthenticatedUser().catch((e) => e);
    expect(err).toBeInstanceOf(GitBookAPIError);
    expect(err.code).toBe(401);
    expect(err.errorMessage).toMatch(/token/i);
  });

  it('creates an organization whose creator is admin, lists and updates members', async () => {
    const owner = await q.createUser('Owner');
    const member = await q.createUser('Member');
    const created = await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Acme Docs', hostname: `acme-${Date.now()}` } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${q.config.publicUrl}/v1/orgs/${created.body.id}`);
    const orgId = created.body.id;
    const { data: org } = await owner.api.orgs.getOrganizationById(orgId);
    expect(org).toMatchObject({ object: 'organization', title: 'Acme Docs', permissions: { admin: true } });

    // Non-members do not see it.
    await expect(member.api.orgs.getOrganizationById(orgId)).rejects.toMatchObject({ code: 404 });

    const { data: added } = await owner.api.orgs.updateMemberInOrganizationById(orgId, member.id, { role: 'edit' as any });
    expect(added).toMatchObject({ object: 'member', id: member.id, role: 'edit' });
    const { data: org2 } = await member.api.orgs.getOrganizationById(orgId);
    expect(org2.permissions.admin).toBe(false);
    await expect(member.api.orgs.updateMemberInOrganizationById(orgId, owner.id, { role: 'read' as any })).rejects.toMatchObject({ code: 403 });

    const { data: list } = await owner.api.orgs.listMembersInOrganizationById(orgId, { limit: 1 });
    expect(list.items).toHaveLength(1);
    expect(list.count).toBe(2);
    expect(list.next?.page).toBeTruthy();
    const { data: rest } = await owner.api.orgs.listMembersInOrganizationById(orgId, { limit: 1, page: list.next!.page });
    expect(rest.items).toHaveLength(1);
    expect(rest.next).toBeUndefined();
    expect(new Set([...list.items, ...rest.items].map((m) => m.id))).toEqual(new Set([owner.id, member.id]));
  });

  it('GET /v1/users/{userId} is the public profile: no email, even for the user themself or the instance admin', async () => {
    const alice = await q.createUser('Alice Public');
    const bob = await q.createUser('Bob Public');
    for (const token of [bob.token, alice.token, ADMIN_TOKEN]) {
      const r = await q.http('GET', `/v1/users/${alice.id}`, { token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ object: 'user', id: alice.id, displayName: 'Alice Public', urls: { location: `${q.config.publicUrl}/v1/users/${alice.id}` } });
    }
    const me = await q.http('GET', '/v1/user', { token: alice.token });
    expect(me.body.email).toMatch(/@example\.com$/);
  });

  it('makes a member a guest with role null: grants kept, organization role gone, the last admin kept', async () => {
    const owner = await q.createUser('Guest Owner');
    const member = await q.createUser('Soon Guest');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Guests' } })).body.id;
    await q.http('PATCH', `/v1/orgs/${orgId}/members/${member.id}`, { token: owner.token, body: { role: 'edit' } });
    const space = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Granted' } });
    const other = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Not granted' } });
    await q.http('POST', `/v1/spaces/${space.body.id}/permissions`, { token: owner.token, body: { role: 'comment', users: [member.id] } });
    expect((await q.http('GET', `/v1/spaces/${other.body.id}`, { token: member.token })).status).toBe(200);

    const guest = await q.http('PATCH', `/v1/orgs/${orgId}/members/${member.id}`, { token: owner.token, body: { role: null } });
    expect(guest.status).toBe(200);
    expect(guest.body).toMatchObject({ object: 'member', id: member.id, role: null, user: { id: member.id } });
    expect((await q.http('GET', `/v1/orgs/${orgId}`, { token: member.token })).status).toBe(404);
    expect((await q.http('GET', `/v1/spaces/${other.body.id}`, { token: member.token })).status).toBe(404);
    const granted = await q.http('GET', `/v1/spaces/${space.body.id}`, { token: member.token });
    expect([granted.status, granted.body.permissions?.comment, granted.body.permissions?.edit]).toEqual([200, true, false]);
    const members = await q.http('GET', `/v1/orgs/${orgId}/members`, { token: owner.token });
    expect(members.body.items.map((m: any) => m.id)).toEqual([owner.id]);
    // Again: nothing to change, still a guest.
    expect((await q.http('PATCH', `/v1/orgs/${orgId}/members/${member.id}`, { token: owner.token, body: { role: null } })).body.role).toBeNull();

    const last = await q.http('PATCH', `/v1/orgs/${orgId}/members/${owner.id}`, { token: owner.token, body: { role: null } });
    expect(last.status).toBe(422);
    expect((await q.http('GET', `/v1/orgs/${orgId}`, { token: owner.token })).body.permissions.admin).toBe(true);
    expect((await q.http('PATCH', `/v1/orgs/${orgId}/members/${member.id}`, { token: owner.token, body: { role: 'nope' } })).status).toBe(400);
  });

  it('validates hostnames and keeps them unique', async () => {
    const u = await q.createUser('Host');
    const hostname = `h-${Date.now()}`;
    expect((await q.http('POST', '/v1/orgs', { token: u.token, body: { title: 'One', hostname } })).status).toBe(201);
    expect((await q.http('POST', '/v1/orgs', { token: u.token, body: { title: 'Two', hostname } })).status).toBe(409);
    const bad = await q.http('POST', '/v1/orgs', { token: u.token, body: { title: 'Three', hostname: 'Not Valid!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/hostname/);
  });

  it('answers GitBook error bodies for unknown routes, malformed JSON and oversized bodies', async () => {
    const unknown = await q.http('GET', '/v1/nope', { token: ADMIN_TOKEN });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 404 } } });
    const malformed = await q.http('POST', '/v1/orgs', { token: ADMIN_TOKEN, rawBody: '{"title": ' });
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: 400 } } });
    const huge = await q.http('POST', '/v1/orgs', { token: ADMIN_TOKEN, rawBody: JSON.stringify({ title: 'x'.repeat(11 * 1024 * 1024) }) });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: 413 } } });
  });

  it('reports health', async () => {
    expect((await q.http('GET', '/health/live')).status).toBe(200);
    const ready = await q.http('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: { status: 'up' }, redis: { status: 'up' }, projections: { status: 'up' } });
  });
});
