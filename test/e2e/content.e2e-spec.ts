import { posix } from 'path';
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

  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  function refsOf(node: any, out: any[] = []): any[] {
    if (node?.data?.ref) out.push({ type: node.type, ref: node.data.ref });
    for (const child of node?.nodes ?? []) refsOf(child, out);
    for (const fragment of node?.fragments ?? []) refsOf(fragment, out);
    return out;
  }

  async function pagesOf(spaceId: string, changeRequestId?: string): Promise<Record<string, any>> {
    const { data: revision } = changeRequestId
      ? await owner.api.spaces.getRevisionOfChangeRequestById(spaceId, changeRequestId)
      : await owner.api.spaces.getCurrentRevision(spaceId);
    const out: Record<string, any> = {};
    const walk = (pages: any[]) => pages.forEach((p) => ((out[p.title] = p), walk(p.pages ?? [])));
    walk(revision.pages as any[]);
    return out;
  }

  describe('references', () => {
    let space: any;
    let cr: any;
    let guide: any;
    let faq: any;
    let fileId: string;
    let faqMarkdown: string;
    beforeAll(async () => {
      space = (await owner.api.orgs.createSpace(orgId, { title: 'Refs' } as any)).data;
      cr = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'refs' })).data;
      const { data: update } = await owner.api.spaces.updateChangeRequestContent(
        space.id,
        cr.id,
        {
          changes: [
            { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nIntro.\n\n## Setup\n\nSteps.\n' } },
            { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nQ?\n' } },
            { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: PNG }] },
          ],
        },
        { compat: false },
      );
      fileId = (update as any).insertedFiles[0].id;
      const pages = await pagesOf(space.id, cr.id);
      guide = pages.Guide;
      faq = pages.FAQ;
      const { data: files } = await owner.api.spaces.listFilesInChangeRequestById(space.id, cr.id);
      const filePath = (files.items[0] as any).git.path as string;
      const rel = (to: string) => posix.relative(posix.dirname(faq.git.path), to) || posix.basename(to);
      faqMarkdown =
        `# FAQ\n\nSee [the guide](${rel(guide.git.path)}), [setup](${rel(guide.git.path)}#setup), [below](#answers) and [out](https://example.com/x).\n\n` +
        `![dot](${rel(filePath)})\n\n` +
        `{% content-ref url="${rel(guide.git.path)}" %}\n[${rel(guide.git.path)}](${rel(guide.git.path)})\n{% endcontent-ref %}\n\n` +
        `{% file src="${rel(filePath)}" %}\n\n## Answers\n\n[missing](no-such-page.md)\n`;
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'update_page', page: faq.id, document: { markdown: faqMarkdown } }] });
    });

    const expectResolved = (document: any) => {
      const refs = refsOf(document);
      expect(refs).toEqual(
        expect.arrayContaining([
          { type: 'link', ref: { kind: 'page', page: guide.id } },
          { type: 'link', ref: { kind: 'anchor', anchor: 'setup', page: guide.id } },
          { type: 'link', ref: { kind: 'anchor', anchor: 'answers' } },
          { type: 'link', ref: { kind: 'url', url: 'https://example.com/x' } },
          { type: 'link', ref: { kind: 'url', url: 'no-such-page.md' } },
          { type: 'content-ref', ref: { kind: 'page', page: guide.id } },
          { type: 'file', ref: { kind: 'file', file: fileId } },
        ]),
      );
      const images = refs.filter((r) => r.type === 'image' || r.type === 'inline-image');
      expect(images).toEqual([{ type: expect.any(String), ref: { kind: 'file', file: fileId } }]);
      // Nothing in the revision is left as a relative path.
      expect(refs.filter((r) => r.ref.kind === 'url' && !/^https:|no-such-page/.test(r.ref.url))).toEqual([]);
    };

    it('format=document resolves links, anchors, images, content-refs and file blocks to page and file ids (change request and space)', async () => {
      const { data: inCr } = await owner.api.spaces.getPageInChangeRequestByPath(space.id, cr.id, faq.path, { format: 'document' });
      expectResolved((inCr as any).document);
      const { data: merged } = await owner.api.spaces.mergeChangeRequest(space.id, cr.id);
      expect(merged.result).toBe('merge');
      const { data: live } = await owner.api.spaces.getPageByPath(space.id, faq.path, { format: 'document' } as any);
      expectResolved((live as any).document);
      const { data: byId } = await owner.api.spaces.getPageById(space.id, faq.id, { format: 'document' } as any);
      expectResolved((byId as any).document);
    });

    it('format.markdown.refs=stable embeds ids (/pages/<id>, /files/<id>), relative keeps the stored markdown, and stable markdown written back reads the same', async () => {
      const get = async (refs: 'relative' | 'stable') =>
        ((await owner.api.spaces.getPageByPath(space.id, faq.path, { format: 'markdown', 'format.markdown.refs': refs } as any)).data as any).markdown as string;
      const relative = await get('relative');
      expect(relative).toBe(faqMarkdown);
      const stable = await get('stable');
      expect(stable).toContain(`[the guide](/pages/${guide.id})`);
      expect(stable).toContain(`[setup](/pages/${guide.id}#setup)`);
      expect(stable).toContain(`![dot](/files/${fileId})`);
      expect(stable).toContain('[below](#answers)');
      expect(stable).toContain('[out](https://example.com/x)');
      expect(stable).toContain('[missing](no-such-page.md)');
      expect(stable).not.toBe(relative);

      const { data: again } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'stable back' });
      await owner.api.spaces.updateChangeRequestContent(space.id, again.id, { changes: [{ operation: 'update_page', page: faq.id, document: { markdown: stable } }] });
      const back = ((await owner.api.spaces.getPageInChangeRequestByPath(space.id, again.id, faq.path, { format: 'markdown' })).data as any).markdown;
      expect(back).toBe(relative);
    });

    it('a document read with id refs written back keeps its links', async () => {
      const { data: live } = await owner.api.spaces.getPageById(space.id, faq.id, { format: 'document' } as any);
      const { data: again } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'document back' });
      await owner.api.spaces.updateChangeRequestContent(space.id, again.id, { changes: [{ operation: 'update_page', page: faq.id, document: { document: (live as any).document } }] });
      const { data: back } = await owner.api.spaces.getPageInChangeRequestById(space.id, again.id, faq.id, { format: 'document' });
      const refs = refsOf((back as any).document);
      expect(refs).toEqual(
        expect.arrayContaining([
          { type: 'link', ref: { kind: 'page', page: guide.id } },
          { type: 'link', ref: { kind: 'anchor', anchor: 'setup', page: guide.id } },
          { type: 'content-ref', ref: { kind: 'page', page: guide.id } },
          { type: 'file', ref: { kind: 'file', file: fileId } },
        ]),
      );
      expect(refs.filter((r) => r.type === 'image' || r.type === 'inline-image')).toEqual([{ type: expect.any(String), ref: { kind: 'file', file: fileId } }]);
    });

    it('RevisionFile.downloadURL serves the file: its bytes and content type, revalidated by blob id, to readers only', async () => {
      const { data: files } = await owner.api.spaces.listFilesInChangeRequestById(space.id, cr.id);
      const file = files.items[0] as any;
      expect(file.downloadURL).toBe(`${q.config.publicUrl}/v1/spaces/${space.id}/content/files/${fileId}/download`);
      const path = file.downloadURL.slice(q.config.publicUrl.length);
      const res = await fetch(q.url + path, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('etag')).toBe(`"${file.git.oid}"`);
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(PNG, 'base64'))).toBe(true);
      const again = await fetch(q.url + path, { headers: { authorization: `Bearer ${owner.token}`, 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
      const stranger = await q.createUser('File Stranger');
      expect((await q.http('GET', path, { token: stranger.token })).status).toBe(404);
      const unknown = await q.http('GET', `/v1/spaces/${space.id}/content/files/noSuchFile0123/download`, { token: owner.token });
      expect([unknown.status, unknown.body.error.message]).toEqual([404, 'File not found in this space']);
    });

    it('a button and a cards table read through the API as valid GitBook JSON, their targets, covers and files as ids; the document written back stores paths again', async () => {
      const { data: change } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'cards' });
      const markdown =
        `# Cards\n\n<a href="/pages/${guide.id}" class="button primary">Guide</a>\n\n` +
        '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image"></th><th data-type="files">Files</th></tr></thead>' +
        `<tbody><tr><td>Setup</td><td><a href="/pages/${guide.id}#setup">Guide</a></td><td><a href="/files/${fileId}">dot.png</a></td><td><a href="/files/${fileId}">dot.png</a></td></tr></tbody></table>\n`;
      await owner.api.spaces.updateChangeRequestContent(space.id, change.id, { changes: [{ operation: 'insert_page', title: 'Cards', document: { markdown } }] });
      const cards = (await pagesOf(space.id, change.id)).Cards;
      const stored = async (changeRequestId: string) =>
        ((await owner.api.spaces.getPageInChangeRequestById(space.id, changeRequestId, cards.id, { format: 'markdown' })).data as any).markdown as string;

      const { data: read } = await owner.api.spaces.getPageInChangeRequestById(space.id, change.id, cards.id, { format: 'document' });
      // Every response is checked against GitBook's spec (q.violations): a button and a table must pass it.
      expect(q.violations).toEqual([]);
      const [buttons, table] = (read as any).document.nodes;
      expect(buttons.nodes.find((n: any) => n.type === 'button').data).toEqual({ label: 'Guide', kind: 'primary', ref: { kind: 'page', page: guide.id } });
      expect(table.data.records.r1.values).toEqual({
        c1: 'r1c1',
        c2: { kind: 'anchor', anchor: 'setup', page: guide.id },
        c3: { ref: { kind: 'file', file: fileId } },
        c4: [fileId],
      });

      const { data: files } = await owner.api.spaces.listFilesInChangeRequestById(space.id, change.id);
      const rel = (to: string) => posix.relative(posix.dirname(cards.git.path), to) || posix.basename(to);
      const paths = [`href="${rel(guide.git.path)}"`, `href="${rel(guide.git.path)}#setup"`, `href="${rel((files.items[0] as any).git.path)}"`];
      const first = await stored(change.id);
      for (const path of paths) expect(first).toContain(path);
      expect(first).not.toMatch(/\/pages\/|\/files\//);

      await owner.api.spaces.updateChangeRequestContent(space.id, change.id, { changes: [{ operation: 'update_page', page: cards.id, document: { document: (read as any).document } }] });
      const back = await stored(change.id);
      for (const path of paths) expect(back).toContain(path);
      expect(back).not.toMatch(/\/pages\/|\/files\//);
    });

    it('a change request page read waits for the content read model when the change request names a revision it has not taken in yet (as the space read does)', async () => {
      const lag = cr; // its head has the FAQ, merged or not
      const db = q.started.runtime.db;
      const head = (await db.query<{ revision: string }>(`SELECT revision FROM rm_change_requests WHERE id = $1`, [lag.id])).rows[0].revision;
      const lagged = `${head.slice(0, 30)}lagged`;
      // The change requests read model moves to a revision the content read model does not hold yet.
      await db.query(`UPDATE rm_change_requests SET revision = $2 WHERE id = $1`, [lag.id, lagged]);
      const reading = owner.api.spaces.getPageInChangeRequestByPath(space.id, lag.id, faq.path, { format: 'markdown' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await db.query(
        `INSERT INTO rm_revisions (space_id, id, change_request_id, parents, kind, git, merged_from, created_by, created_at, pages, files)
         SELECT space_id, $3, change_request_id, parents, kind, git, merged_from, created_by, created_at, pages, files FROM rm_revisions WHERE space_id = $1 AND id = $2`,
        [space.id, head, lagged],
      );
      await db.query(
        `INSERT INTO rm_revision_pages (space_id, revision_id, page_id, parent_id, position, kind, title, slug, path, file, blob, node)
         SELECT space_id, $3, page_id, parent_id, position, kind, title, slug, path, file, blob, node FROM rm_revision_pages WHERE space_id = $1 AND revision_id = $2`,
        [space.id, head, lagged],
      );
      const { data: page } = await reading;
      expect(page).toMatchObject({ id: faq.id });
      expect((page as any).markdown).toContain('# FAQ');
    });
  });

  it('page paths are decoded once: `%` and unicode in paths work on the space and change-request routes', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Paths' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'paths' });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: '常見問題', document: { markdown: '# 常見問題\n\nQ.\n' } }] });
    const routes = [`/v1/spaces/${space.id}/content`, `/v1/spaces/${space.id}/change-requests/${cr.id}/content`];
    for (const base of routes) {
      // `a%25E0` is the path `a%E0`: no such page (decoding it a second time was a 500).
      const odd = await q.http('GET', `${base}/path/a%25E0`, { token: owner.token });
      expect([base, odd.status, odd.body.error?.message]).toEqual([base, 404, 'Page not found in this space']);
    }
    const inCr = await q.http('GET', `${routes[1]}/path/${encodeURIComponent('常見問題')}?format=markdown`, { token: owner.token });
    expect([inCr.status, inCr.body.markdown]).toEqual([200, '# 常見問題\n\nQ.\n']);
    await owner.api.spaces.mergeChangeRequest(space.id, cr.id);
    const live = await q.http('GET', `${routes[0]}/path/${encodeURIComponent('常見問題')}?format=markdown`, { token: owner.token });
    expect([live.status, live.body.markdown]).toEqual([200, '# 常見問題\n\nQ.\n']);
  });

  it('dereferenced expands {% include %} reusable content (links rebased onto the page, refs resolved); the default leaves it as written', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Reuse' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'reuse' });
    const snippet = '---\ndescription: shared\n---\n\nShared **text**, see [the guide](../../guide.md).\n';
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nIntro.\n' } },
        { operation: 'insert_files', files: [{ name: 'snippet.md', contentType: 'text/markdown', base64: Buffer.from(snippet).toString('base64') }] },
      ],
    });
    // Markdown is not a RevisionFile; insert_files writes it here (as GitBook's .gitbook/includes/ would be).
    const snippetPath = '.gitbook/assets/snippet.md';
    const page = `# Reuse\n\nBefore.\n\n{% include "${snippetPath}" %}\n\nAfter.\n`;
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Reuse', document: { markdown: page } }] });
    const pages = await pagesOf(space.id, cr.id);
    const read = async (params: Record<string, string>) => (await owner.api.spaces.getPageInChangeRequestById(space.id, cr.id, pages.Reuse.id, params as any)).data as any;

    expect((await read({ format: 'markdown' })).markdown).toBe(page);
    expect((await read({ format: 'markdown', dereferenced: 'true' })).markdown).toBe('# Reuse\n\nBefore.\n\nShared **text**, see [the guide](guide.md).\n\nAfter.\n');
    expect((await read({ format: 'markdown', dereferenced: 'reusable-contents' })).markdown).toContain('Shared **text**');
    const { document } = await read({ format: 'document', dereferenced: 'true' });
    expect(refsOf(document)).toEqual([{ type: 'link', ref: { kind: 'page', page: pages.Guide.id } }]);
    expect(JSON.stringify(document)).not.toContain('include');
    expect(JSON.stringify((await read({ format: 'document' })).document)).toContain('{% include');
  });

  it('a heading written as JSON with a custom anchor (meta.id) reads back with it, in markdown as GitBook exports it', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Anchors' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'anchors' });
    const heading = { object: 'block', type: 'heading-2', data: {}, meta: { id: 'custom-anchor' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Flamingo heading', marks: [] }] }] };
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', title: 'Birds', document: { document: { object: 'document', data: {}, nodes: [heading] } } } as any],
    });
    const pages = await pagesOf(space.id, cr.id);
    const { data: doc } = await owner.api.spaces.getPageInChangeRequestById(space.id, cr.id, pages.Birds.id, { format: 'document' });
    expect((doc as any).document.nodes[0]).toMatchObject({ type: 'heading-2', meta: { id: 'custom-anchor' } });
    const { data: md } = await owner.api.spaces.getPageInChangeRequestById(space.id, cr.id, pages.Birds.id, { format: 'markdown' });
    expect((md as any).markdown).toContain('## Flamingo heading <a href="#custom-anchor" id="custom-anchor"></a>');
  });
});
