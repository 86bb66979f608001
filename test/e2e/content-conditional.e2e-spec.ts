import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * Every content read (live, change request, past revision, document by id, files) carries a weak
 * ETag made of the revision and the representation asked for, and answers If-None-Match with a 304
 * and no body; what is cached per revision never hides an edit: a read right after a merge or a
 * change-request edit shows the new content under a new tag.
 */
describe('content reads: caching per revision and conditional requests (e2e)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let stranger: Awaited<ReturnType<TestQuire['createUser']>>;
  let spaceId: string;
  let guide: any;
  let first: string;
  let fileId: string;

  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  /** A plain GET (no schema check: a 304 has no body to check), with the owner's token unless told. */
  const get = (path: string, headers: Record<string, string> = {}, token = owner.token) =>
    fetch(q.url + path, { headers: { authorization: `Bearer ${token}`, ...headers } });

  /** The ETag of a 200 read, after checking that the same tag answers a 304 without a body. */
  async function tagOf(path: string): Promise<string> {
    const full = await get(path);
    expect(full.status).toBe(200);
    const etag = full.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[^"]+"$/);
    expect(full.headers.get('cache-control')).toBe('private, no-cache');
    const again = await get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    return etag;
  }

  async function merge(markdown: string): Promise<void> {
    const cr = (await owner.api.spaces.createChangeRequest(spaceId, { subject: 'edit' })).data;
    await owner.api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: [{ operation: 'update_page', page: guide.id, document: { markdown } }] });
    expect((await owner.api.spaces.mergeChangeRequest(spaceId, cr.id)).data.result).toBe('merge');
  }

  beforeAll(async () => {
    q = await startTestQuire();
    owner = await q.createUser('Owner');
    stranger = await q.createUser('Stranger');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Conditional Org' } })).body.id;
    spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Conditional' } as any)).data.id;
    const cr = (await owner.api.spaces.createChangeRequest(spaceId, { subject: 'v1' })).data;
    const { data: update } = await owner.api.spaces.updateChangeRequestContent(
      spaceId,
      cr.id,
      {
        changes: [
          { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nv1 of the guide.\n' } },
          { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: PNG }] },
        ],
      },
      { compat: false },
    );
    fileId = (update as any).insertedFiles[0].id;
    expect((await owner.api.spaces.mergeChangeRequest(spaceId, cr.id)).data.result).toBe('merge');
    const revision = (await owner.api.spaces.getCurrentRevision(spaceId)).data;
    first = revision.id;
    guide = (revision.pages as any[]).find((p) => p.title === 'Guide');
  }, 120_000);
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('a live page read right after a merge shows the new content under a new ETag; the old tag no longer matches', async () => {
    const byPath = `/v1/spaces/${spaceId}/content/path/${guide.path}?format=markdown`;
    const byId = `/v1/spaces/${spaceId}/content/page/${guide.id}?format=document`;
    expect((await owner.api.spaces.getPageByPath(spaceId, guide.path, { format: 'markdown' } as any)).data).toMatchObject({ markdown: '# Guide\n\nv1 of the guide.\n' });
    const [pathTag, idTag] = [await tagOf(byPath), await tagOf(byId)];
    expect(pathTag).not.toBe(idTag);
    // Another representation of the same page has another tag.
    expect(await tagOf(`/v1/spaces/${spaceId}/content/path/${guide.path}?format=document`)).not.toBe(pathTag);

    await merge('# Guide\n\nv2 of the guide.\n');
    const { data: after } = await owner.api.spaces.getPageByPath(spaceId, guide.path, { format: 'markdown' } as any);
    expect((after as any).markdown).toBe('# Guide\n\nv2 of the guide.\n');
    const { data: document } = await owner.api.spaces.getPageById(spaceId, guide.id, { format: 'document' } as any);
    expect(JSON.stringify((document as any).document)).toContain('v2 of the guide.');

    const stale = await get(byPath, { 'if-none-match': pathTag });
    expect(stale.status).toBe(200);
    expect(((await stale.json()) as any).markdown).toBe('# Guide\n\nv2 of the guide.\n');
    expect(stale.headers.get('etag')).not.toBe(pathTag);
    expect((await get(byId, { 'if-none-match': idTag })).status).toBe(200);
  });

  it('a past revision keeps its content and its ETag after the space moved on; `*` and a list of tags match too', async () => {
    const path = `/v1/spaces/${spaceId}/revisions/${first}/page/${guide.id}?format=markdown`;
    const before = await tagOf(path);
    await merge('# Guide\n\nv3 of the guide.\n');
    const { data: old } = await owner.api.spaces.getPageInRevisionById(spaceId, first, guide.id, { format: 'markdown' });
    expect((old as any).markdown).toBe('# Guide\n\nv1 of the guide.\n');
    expect(await tagOf(path)).toBe(before);
    expect((await get(path, { 'if-none-match': '*' })).status).toBe(304);
    expect((await get(path, { 'if-none-match': `"other", ${before.slice(2)}` })).status).toBe(304);
    expect((await get(path, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('a conditional read is still an authorized read: an outsider holding the tag gets 404, not 304', async () => {
    const path = `/v1/spaces/${spaceId}/content/path/${guide.path}?format=markdown`;
    const etag = await tagOf(path);
    const outsider = await get(path, { 'if-none-match': etag }, stranger.token);
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toMatchObject({ error: { code: 404 } });
  });

  it('revision, pages, files, file, document, meta-links and the document by id: each a 304 for its own tag', async () => {
    const paths = [
      `/v1/spaces/${spaceId}/content`,
      `/v1/spaces/${spaceId}/content/files`,
      `/v1/spaces/${spaceId}/revisions/${first}`,
      `/v1/spaces/${spaceId}/revisions/${first}/pages`,
      `/v1/spaces/${spaceId}/revisions/${first}/files?limit=1`,
      `/v1/spaces/${spaceId}/revisions/${first}/files/${fileId}`,
      `/v1/spaces/${spaceId}/revisions/${first}/path/${guide.path}?format=document`,
      `/v1/spaces/${spaceId}/revisions/${first}/page/${guide.id}/document`,
      `/v1/spaces/${spaceId}/revisions/${first}/page/${guide.id}/meta-links`,
      `/v1/spaces/${spaceId}/documents/${guide.documentId}`,
    ];
    const tags = [];
    for (const path of paths) tags.push(await tagOf(path));
    expect(new Set(tags).size).toBe(tags.length);
    // Options are part of the representation.
    expect(await tagOf(`/v1/spaces/${spaceId}/revisions/${first}?metadata=false`)).not.toBe(tags[2]);
    // File bytes keep their strong tag (the blob), weakly compared.
    const download = await get(`/v1/spaces/${spaceId}/revisions/${first}/files/${fileId}/download`);
    const blobTag = download.headers.get('etag')!;
    expect(blobTag).toMatch(/^"[0-9a-f]{40}"$/);
    expect((await get(`/v1/spaces/${spaceId}/revisions/${first}/files/${fileId}/download`, { 'if-none-match': `W/${blobTag}` })).status).toBe(304);
  });

  it('a change request page read right after an edit of the change request shows the edit under a new ETag', async () => {
    const cr = (await owner.api.spaces.createChangeRequest(spaceId, { subject: 'draft' })).data;
    const path = `/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${guide.id}?format=markdown`;
    const live = (await owner.api.spaces.getPageById(spaceId, guide.id, { format: 'markdown' } as any)).data as any;
    const before = await tagOf(path);
    expect((await q.http('GET', path, { token: owner.token })).body.markdown).toBe(live.markdown);
    await owner.api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: [{ operation: 'update_page', page: guide.id, document: { markdown: '# Guide\n\nDrafted.\n' } }] });
    const { data: page } = await owner.api.spaces.getPageInChangeRequestById(spaceId, cr.id, guide.id, { format: 'markdown' } as any);
    expect((page as any).markdown).toBe('# Guide\n\nDrafted.\n');
    const after = await tagOf(path);
    expect(after).not.toBe(before);
    expect(await tagOf(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`)).toMatch(/^W\//);
    expect(await tagOf(`/v1/spaces/${spaceId}/change-requests/${cr.number}/content/path/${guide.path}`)).toMatch(/^W\//);
  });
});
