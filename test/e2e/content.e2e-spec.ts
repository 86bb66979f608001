import { startTestQuire, TestQuire } from '../support/quire-app';

describe('space content (e2e, official client)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('Writer');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Docs Org' } })).body.id;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('a new space has a first revision with one README page, readable as a revision, by id and by path', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Handbook' } as any);
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    expect(revision.id).toBe(space.revision);
    expect(revision.parents).toEqual([]);
    expect(revision.pages).toHaveLength(1);
    const [page] = revision.pages as any[];
    expect(page).toMatchObject({ kind: 'sheet', type: 'document', title: 'Handbook', pages: [] });

    const { data: byId } = await owner.api.spaces.getPageById(space.id, page.id, { format: 'markdown' } as any);
    expect(byId).toMatchObject({ id: page.id, markdown: '# Handbook\n' });
    const { data: byPath } = await owner.api.spaces.getPageByPath(space.id, page.path, { format: 'document' } as any);
    expect(byPath).toMatchObject({ id: page.id, document: { object: 'document' } });
    const { data: files } = await owner.api.spaces.listFiles(space.id);
    expect(files.items).toEqual([]);
  });

  it('answers 404 for unknown pages and 400 for bad options', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Errors' } as any);
    await expect(owner.api.spaces.getPageByPath(space.id, 'no/such/page')).rejects.toMatchObject({ code: 404 });
    await expect(owner.api.spaces.getPageById(space.id, 'nope')).rejects.toMatchObject({ code: 404 });
    const bad = await q.http('GET', `/v1/spaces/${space.id}/content/path/x?format=html`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/format/);
    const stranger = await q.createUser('Stranger');
    await expect(stranger.api.spaces.getCurrentRevision(space.id)).rejects.toMatchObject({ code: 404 });
  });

  it('a duplicated space has the same pages (same ids) in a new revision', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Original' } as any);
    const { data: copy } = await owner.api.spaces.duplicateSpace(space.id);
    const { data: a } = await owner.api.spaces.getCurrentRevision(space.id);
    const { data: b } = await owner.api.spaces.getCurrentRevision(copy.id);
    expect(b.id).not.toBe(a.id);
    expect(b.pages.map((p: any) => [p.id, p.title, p.path])).toEqual(a.pages.map((p: any) => [p.id, p.title, p.path]));
  });
});
