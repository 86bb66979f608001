import { startTestQuire, TestQuire } from '../support/quire-app';

/** An outsider resolving a published URL learns what the site shows, not what the space's members see. */
describe('GET /v1/urls/content: the public subset of a space for outsiders (e2e)', () => {
  let q: TestQuire;

  beforeAll(async () => {
    q = await startTestQuire();
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('gives an outsider no counts, merge rules, default level, collection or organization; members see them', async () => {
    const owner = await q.createUser('Space Owner');
    const outsider = await q.createUser('Outsider');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Members', hostname: `members-${Date.now().toString(36)}` } })).body;
    const { data: collection } = await owner.api.orgs.createCollection(org.id, { title: 'Inside' });
    const { data: space } = await owner.api.orgs.createSpace(org.id, { title: 'Open docs', parent: collection.id } as any);
    await owner.api.spaces.createChangeRequest(space.id, { subject: 'Unannounced feature' });
    await owner.api.spaces.updateSpaceById(space.id, {
      visibility: 'public',
      defaultLevel: 'edit',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_up_to_date_change_request' }] },
    } as any);
    const published = `${q.config.publishedUrl}/${org.hostname}/${space.id}`;

    const seenByOwner = (await owner.api.urls.getContentByUrl({ url: published })).data as { space: any };
    expect(seenByOwner.space).toMatchObject({ organization: org.id, parent: collection.id, changeRequests: 1, changeRequestsDraft: 1, defaultLevel: 'edit', mergeRules: { type: 'rules' } });

    const seenByOutsider = (await outsider.api.urls.getContentByUrl({ url: published })).data as { space: any };
    const { data: direct } = await owner.api.spaces.getSpaceById(space.id);
    expect(seenByOutsider.space).toEqual({
      object: 'space',
      id: space.id,
      title: 'Open docs',
      emoji: direct.emoji,
      visibility: 'public',
      createdAt: direct.createdAt,
      updatedAt: direct.updatedAt,
      urls: direct.urls,
      organization: '',
      revision: direct.revision,
      defaultLevel: 'inherit',
      mergeRules: { type: 'inherit' },
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: expect.objectContaining({ view: true, edit: false, admin: false, comment: false }),
    });
    // As the space read answers the same outsider.
    expect((await q.http('GET', `/v1/spaces/${space.id}`, { token: outsider.token })).status).toBe(404);
  });
});
