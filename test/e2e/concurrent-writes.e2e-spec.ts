import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * Many requests changing the same thing at once (one event stream): each is decided again on
 * fresh state when another won the race, with a jittered backoff, so all of them land, none
 * is lost and none answers 5xx. Merges of every change request at once, and of one twice,
 * leave every page in the space.
 */
describe('concurrent writes to the same space (e2e)', () => {
  let q: TestQuire;
  let token: string;
  let orgId: string;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('Concurrent');
    token = owner.token;
    orgId = (await q.http('POST', '/v1/orgs', { token, body: { title: 'Concurrent' } })).body.id;
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });

  const statuses = (responses: Array<{ status: number }>) => responses.map((r) => r.status);

  it('lands 20 simultaneous updates and 15 simultaneous invitations to one space', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Busy' } as any);
    const titles = Array.from({ length: 20 }, (_, i) => `Title ${i}`);
    const patches = await Promise.all(titles.map((title, i) => q.http('PATCH', `/v1/spaces/${space.id}`, { token, body: { title, visibility: i % 2 ? 'public' : 'unlisted' } })));
    expect(statuses(patches)).toEqual(titles.map(() => 200));
    expect(titles).toContain((await owner.api.spaces.getSpaceById(space.id)).data.title);
    // Every PATCH is one event: none was dropped.
    const events = await q.started.runtime.store.readStream(`space-${space.id}`);
    expect(events.filter((e) => e.type === 'SpaceUpdated')).toHaveLength(20);

    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => q.createUser(`Invitee ${i}`)));
    const invites = await Promise.all(users.flatMap((u) => ['read', 'edit', 'admin'].map((role) => q.http('POST', `/v1/spaces/${space.id}/permissions`, { token, body: { role, users: [u.id] } }))));
    expect(statuses(invites)).toEqual(invites.map(() => 204));
    const { data: listed } = await owner.api.spaces.listPermissionsAggregateInSpace(space.id);
    for (const u of users) expect(listed.items.some((item: any) => item.user.id === u.id)).toBe(true);
  });

  it('merges ten change requests at once, one of them twice, keeping every page', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Merges' } as any);
    const crs = await Promise.all(Array.from({ length: 10 }, (_, i) => q.http('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: { subject: `CR ${i}` } })));
    expect(statuses(crs)).toEqual(crs.map(() => 201));
    const ids: string[] = crs.map((r) => r.body.id);
    const edits = await Promise.all(
      ids.map((id, i) =>
        q.http('POST', `/v1/spaces/${space.id}/change-requests/${id}/content`, {
          token,
          body: { changes: [{ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `# Page ${i}\n` } }] },
        }),
      ),
    );
    expect(statuses(edits)).toEqual(edits.map(() => 200));
    const merges = await Promise.all([...ids, ids[0]].map((id) => q.http('POST', `/v1/spaces/${space.id}/change-requests/${id}/merge`, { token })));
    expect(merges.map((m) => [m.status, m.body.result])).toEqual(merges.map(() => [200, 'merge']));
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    expect(revision.pages.map((p: any) => p.title).sort()).toEqual([revision.pages[0].title, ...ids.map((_, i) => `Page ${i}`)].sort());
    expect((await q.started.runtime.projector.lag()).failed).toEqual([]);
  });
});
