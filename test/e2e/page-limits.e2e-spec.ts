import { PublishedSites } from '../../apps/api/src/site/published-sites';
import { startTestQuire, TestQuire } from '../support/quire-app';

/** One anonymous request must not cost the server much: pages are bounded, and repeat views are not rendered again. */
describe('page limits and the published page cache (e2e)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire({ pageLimits: { maxBytes: 200_000, maxBlocks: 2_000 } });
    owner = await q.createUser('Writer');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Limits Org', hostname: `limits-${Date.now()}` } })).body.id;
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  const headings = (count: number) => `# Big\n\n${Array.from({ length: count }, (_, i) => `## Heading ${i}\n`).join('\n')}`;

  async function batch(spaceId: string, crId: string, markdown: string) {
    return q.http('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
      token: owner.token,
      body: { changes: [{ operation: 'insert_page', title: 'Big', document: { markdown } }] },
    });
  }

  it('refuses a page with too many blocks or bytes with a 400 that says which limit, and writes nothing', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Limits' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'big' });
    const before = (await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data.revision;

    const tooManyBlocks = await batch(space.id, cr.id, headings(2_500));
    expect(tooManyBlocks.status).toBe(400);
    expect(tooManyBlocks.body.error).toEqual({
      code: 400,
      message: 'changes[0] (insert_page): the page has 2501 blocks; a page may hold at most 2000 blocks (split it into several pages)',
    });
    const tooLong = await batch(space.id, cr.id, `# Big\n\n${'word '.repeat(50_000)}\n`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/^changes\[0\] \(insert_page\): the page is 250008 bytes long; a page may hold at most 200000 bytes/);
    const tooLongAsDocument = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      token: owner.token,
      body: { changes: [{ operation: 'insert_page', title: 'Doc', document: { document: { object: 'document', nodes: Array.from({ length: 2_100 }, () => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }] })) } } }],
      },
    });
    expect(tooLongAsDocument.status).toBe(400);
    expect(tooLongAsDocument.body.error.message).toMatch(/at most 2000 blocks/);
    expect((await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data.revision).toBe(before);

    expect((await batch(space.id, cr.id, headings(1_000))).status).toBe(200);
  });

  it('caps the outline of a published page, and serves repeat views of a revision without rendering again', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Published' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'big' });
    expect((await batch(space.id, cr.id, headings(1_000))).status).toBe(200);
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const { data: published } = await owner.api.spaces.updateSpaceById(space.id, { visibility: 'public' } as any);
    // The published URL names the configured public URL; the test's server listens elsewhere.
    const pageUrl = `${q.url}${new URL(published.urls.published!).pathname}/big`;

    const sites = q.started.app.get(PublishedSites);
    const reads = jest.spyOn(sites, 'document');
    try {
      const first = await fetch(pageUrl);
      expect(first.status).toBe(200);
      const body = await first.text();
      const outline = body.slice(body.indexOf('<aside class="outline"'));
      expect(outline.match(/<li class="level-2">/g)).toHaveLength(100);
      // The page itself keeps every heading.
      expect(body).toContain('Heading 999');

      const again = await fetch(pageUrl);
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(await again.text()).toBe(body);
      expect(reads).toHaveBeenCalledTimes(1);

      // Another revision is another ETag: rendered afresh.
      const { data: next } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'edit' });
      const pageId = (await owner.api.spaces.getPageByPath(space.id, 'big')).data.id;
      await owner.api.spaces.updateChangeRequestContent(space.id, next.id, { changes: [{ operation: 'update_page', page: pageId, document: { markdown: '# Big\n\nShort now.\n' } }] });
      expect((await owner.api.spaces.mergeChangeRequest(space.id, next.id)).data.result).toBe('merge');
      const changed = await fetch(pageUrl);
      expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
      expect(await changed.text()).toContain('Short now.');
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });
});
