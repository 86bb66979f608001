import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { until } from '../chaos/chaos-support';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('revisions (e2e, official client)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let reader: Awaited<ReturnType<TestQuire['createUser']>>;
  let stranger: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let gitRoot: string;

  /** A space whose guide page said "v1", then "v2" after a merged change request, and a change request still open. */
  let space: any;
  let first: any;
  let merged: any;
  let guide: any;
  let fileId: string;
  let openCr: any;

  beforeAll(async () => {
    gitRoot = mkdtempSync(join(tmpdir(), 'quire-revisions-git-'));
    git = await startGitHttpServer({ root: gitRoot });
    q = await startTestQuire();
    owner = await q.createUser('Owner');
    reader = await q.createUser('Reader');
    stranger = await q.createUser('Stranger');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'History Org' } })).body.id;
    await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'read' as any });

    space = (await owner.api.orgs.createSpace(orgId, { title: 'History' } as any)).data;
    const cr1 = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'v1' })).data;
    const { data: update } = await owner.api.spaces.updateChangeRequestContent(
      space.id,
      cr1.id,
      {
        changes: [
          { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nv1 of the guide.\n' } },
          { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: PNG }] },
        ],
      },
      { compat: false },
    );
    fileId = (update as any).insertedFiles[0].id;
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr1.id)).data.result).toBe('merge');
    first = (await owner.api.spaces.getCurrentRevision(space.id)).data;
    guide = (first.pages as any[]).find((p) => p.title === 'Guide');

    const cr2 = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'v2' })).data;
    await owner.api.spaces.updateChangeRequestContent(space.id, cr2.id, {
      changes: [{ operation: 'update_page', page: guide.id, document: { markdown: '# Guide\n\nv2 of the guide.\n' } }],
    });
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr2.id)).data.result).toBe('merge');
    merged = (await owner.api.spaces.getCurrentRevision(space.id)).data;
    expect(merged.id).not.toBe(first.id);

    openCr = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'open' })).data;
    await owner.api.spaces.updateChangeRequestContent(space.id, openCr.id, {
      changes: [{ operation: 'update_page', page: guide.id, document: { markdown: '# Guide\n\nv3, still in review.\n' } }],
    });
    openCr = (await owner.api.spaces.getChangeRequestById(space.id, openCr.id)).data;
  }, 120_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    if (gitRoot) rmSync(gitRoot, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  /** The newest git import of the space once `count` of them have finished. */
  const settled = (spaceId: string, count: number) =>
    until(`${count} git import(s) of ${spaceId} to finish`, async () => {
      const items = (await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: owner.token })).body.items;
      const done = items.filter((i: any) => !['queued', 'running'].includes(i.status));
      return done.length >= count && done[0];
    });

  it('a past revision reads as it was: the revision, its pages, files and a page by id and by path', async () => {
    const { data: revision } = await owner.api.spaces.getRevisionById(space.id, first.id);
    expect(revision).toMatchObject({ object: 'revision', id: first.id, type: 'merge', parents: first.parents });
    expect((revision as any).mergedFrom).toMatchObject({ object: 'change-request', subject: 'v1' });
    expect(revision.pages.map((p: any) => p.id)).toEqual(first.pages.map((p: any) => p.id));
    expect((await owner.api.spaces.getRevisionById(space.id, first.id, { metadata: false })).data.git).toBeUndefined();

    const { data: pages } = await owner.api.spaces.listPagesInRevisionById(space.id, first.id);
    expect(pages.pages.map((p: any) => p.title)).toEqual(['History', 'Guide']);

    const { data: old } = await owner.api.spaces.getPageInRevisionById(space.id, first.id, guide.id, { format: 'markdown' });
    expect((old as any).markdown).toBe('# Guide\n\nv1 of the guide.\n');
    const { data: now } = await owner.api.spaces.getPageInRevisionById(space.id, merged.id, guide.id, { format: 'markdown' });
    expect((now as any).markdown).toBe('# Guide\n\nv2 of the guide.\n');
    const { data: live } = await owner.api.spaces.getPageById(space.id, guide.id, { format: 'markdown' } as any);
    expect(live).toEqual(now);

    const { data: byPath } = await owner.api.spaces.getPageInRevisionByPath(space.id, first.id, guide.path, { format: 'document' });
    expect(byPath).toMatchObject({ id: guide.id, document: { object: 'document' } });
    expect(JSON.stringify((byPath as any).document)).toContain('v1 of the guide.');

    const { data: document } = await owner.api.spaces.getPageDocumentInRevisionById(space.id, first.id, guide.id);
    expect(document).toEqual((byPath as any).document);
    const { data: metaLinks } = await owner.api.spaces.listRevisionPageMetaLinks(space.id, first.id, guide.id);
    expect(metaLinks).toEqual({ alternates: [] });

    const { data: files } = await owner.api.spaces.listFilesInRevisionById(space.id, first.id, { limit: 1 });
    expect(files.items).toEqual([expect.objectContaining({ id: fileId, name: 'dot.png', contentType: 'image/png' })]);
    const { data: file } = await owner.api.spaces.getFileInRevisionById(space.id, first.id, fileId);
    expect(file).toEqual(files.items[0]);
  });

  it('a page path with slashes (a change request head) and the first revision of the space', async () => {
    const cr = (await owner.api.spaces.createChangeRequest(space.id, { subject: 'nested' })).data;
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'insert_page', title: 'Deep', into: guide.id, document: { markdown: '# Deep\n\nNested.\n' } }],
    });
    const head = (await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data.revision;
    const { data: deep } = await owner.api.spaces.getPageInRevisionByPath(space.id, head, `${guide.path}/deep`, { format: 'markdown' });
    expect(deep).toMatchObject({ title: 'Deep', path: `${guide.path}/deep`, markdown: '# Deep\n\nNested.\n' });
    // The space's very first revision (kind initial) has only the README.
    const initial = first.parents[0];
    const { data: start } = await owner.api.spaces.getRevisionById(space.id, initial);
    expect(start).toMatchObject({ id: initial, type: 'edits', parents: [] });
    await expect(owner.api.spaces.getPageInRevisionById(space.id, initial, guide.id)).rejects.toMatchObject({ code: 404 });
  });

  it("a change request's head and a standalone import are readable revisions", async () => {
    const { data: head } = await owner.api.spaces.getPageInRevisionById(space.id, openCr.revision, guide.id, { format: 'markdown' });
    expect((head as any).markdown).toBe('# Guide\n\nv3, still in review.\n');

    await createRepoFromFiles(gitRoot, 'standalone', { 'README.md': '# Imported\n\nFrom git.\n', 'SUMMARY.md': '* [Imported](README.md)\n' });
    const target = (await owner.api.orgs.createSpace(orgId, { title: 'Standalone' } as any)).data;
    const r = await q.http('POST', `/v1/spaces/${target.id}/git/import`, { token: owner.token, body: { url: `${git.url}/standalone.git`, ref: 'refs/heads/main', standalone: true } });
    expect(r.status).toBe(204);
    const run = await settled(target.id, 1);
    expect(run).toMatchObject({ status: 'completed', standalone: true });
    expect((await owner.api.spaces.getCurrentRevision(target.id)).data.id).not.toBe(run.revision);
    const { data: imported } = await owner.api.spaces.getRevisionById(target.id, run.revision);
    const page = (imported.pages as any[])[0];
    const { data: read } = await owner.api.spaces.getPageInRevisionByPath(target.id, run.revision, page.path, { format: 'markdown' });
    expect((read as any).markdown).toBe('# Imported\n\nFrom git.\n');
  });

  it("a file's downloadURL in a revision read gives that revision's bytes, even after the file was replaced", async () => {
    const target = (await owner.api.orgs.createSpace(orgId, { title: 'Replaced' } as any)).data;
    const png = (shade: number) => {
      const bytes = Buffer.from(PNG, 'base64');
      bytes[bytes.length - 20] = shade; // another image of the same size (only the bytes differ)
      return bytes;
    };
    const runs: any[] = [];
    for (const [i, shade] of [1, 2].entries()) {
      await createRepoFromFiles(gitRoot, `replaced-${i}`, { 'README.md': '# Replaced\n\n![](.gitbook/assets/pic.png)\n', 'SUMMARY.md': '* [Replaced](README.md)\n', '.gitbook/assets/pic.png': png(shade) });
      expect((await q.http('POST', `/v1/spaces/${target.id}/git/import`, { token: owner.token, body: { url: `${git.url}/replaced-${i}.git`, ref: 'refs/heads/main' } })).status).toBe(204);
      runs.push(await settled(target.id, i + 1));
      expect(runs[i]).toMatchObject({ status: 'completed' });
    }
    const [before, after] = await Promise.all(runs.map(async (run) => (await owner.api.spaces.listFilesInRevisionById(target.id, run.revision)).data.items[0] as any));
    expect(before.id).toBe(after.id);
    expect(before.git.oid).not.toBe(after.git.oid);
    const bytes = async (url: string) => {
      const r = await fetch(q.url + new URL(url).pathname, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(r.status).toBe(200);
      return Buffer.from(await r.arrayBuffer());
    };
    expect(await bytes(before.downloadURL)).toEqual(png(1));
    expect(await bytes(after.downloadURL)).toEqual(png(2));
    const live = (await owner.api.spaces.listFiles(target.id)).data.items[0] as any;
    expect(await bytes(live.downloadURL)).toEqual(png(2));
    const missing = await q.http('GET', `/v1/spaces/${target.id}/revisions/${runs[0].revision}/files/nofile/download`, { token: owner.token });
    expect(missing.status).toBe(404);
    const stranger404 = await q.http('GET', new URL(before.downloadURL).pathname, { token: stranger.token });
    expect(stranger404.status).toBe(404);
  });

  it("a revision of another space, or none at all, is a 404 in GitBook's body: never that space's content", async () => {
    const other = (await owner.api.orgs.createSpace(orgId, { title: 'Other' } as any)).data;
    const reads = (revisionId: string) => [
      () => owner.api.spaces.getRevisionById(space.id, revisionId),
      () => owner.api.spaces.listPagesInRevisionById(space.id, revisionId),
      () => owner.api.spaces.listFilesInRevisionById(space.id, revisionId),
      () => owner.api.spaces.getFileInRevisionById(space.id, revisionId, fileId),
      () => owner.api.spaces.getPageInRevisionById(space.id, revisionId, guide.id),
      () => owner.api.spaces.getPageInRevisionByPath(space.id, revisionId, 'guide'),
      () => owner.api.spaces.getPageDocumentInRevisionById(space.id, revisionId, guide.id),
      () => owner.api.spaces.listRevisionPageMetaLinks(space.id, revisionId, guide.id),
      () => owner.api.spaces.getReusableContentInRevisionById(space.id, revisionId, 'rc'),
    ];
    for (const revisionId of [other.revision, '0'.repeat(40), 'nope']) {
      for (const read of reads(revisionId)) await expect(read()).rejects.toMatchObject({ code: 404, message: expect.stringMatching(/Revision not found/) });
    }
    // Another space's page read through this space's revision route: not found either.
    const otherPage = (await owner.api.spaces.getCurrentRevision(other.id)).data.pages[0] as any;
    await expect(owner.api.spaces.getPageInRevisionById(space.id, first.id, otherPage.id)).rejects.toMatchObject({ code: 404 });
    await expect(owner.api.spaces.getPageInRevisionById(space.id, other.revision, otherPage.id)).rejects.toMatchObject({ code: 404 });
    await expect(owner.api.spaces.getFileInRevisionById(space.id, first.id, 'nofile')).rejects.toMatchObject({ code: 404, message: expect.stringMatching(/File not found/) });
    // Odd ids are bad input, not a server error.
    const odd = await q.http('GET', `/v1/spaces/${space.id}/revisions/${encodeURIComponent('a b')}/page/${guide.id}`, { token: owner.token });
    expect(odd.status).toBe(400);
  });

  it('Quire has no reusable contents: their reads are a 404 in an existing revision', async () => {
    await expect(owner.api.spaces.getReusableContentInRevisionById(space.id, first.id, 'rc1')).rejects.toMatchObject({ code: 404 });
    const raw = await q.http('GET', `/v1/spaces/${space.id}/revisions/${first.id}/reusable-contents/rc1/document`, { token: owner.token });
    expect(raw.status).toBe(404);
    expect(raw.body.error.message).toMatch(/Reusable content/);
  });

  it("a page's documentId resolves to its document, in the live revision or a past one", async () => {
    const { data: past } = await owner.api.spaces.getPageInRevisionById(space.id, first.id, guide.id);
    const { data: live } = await owner.api.spaces.getPageById(space.id, guide.id);
    expect((past as any).documentId).not.toBe((live as any).documentId);
    const { data: oldDoc } = await owner.api.spaces.getDocumentById(space.id, (past as any).documentId);
    expect(JSON.stringify(oldDoc)).toContain('v1 of the guide.');
    const { data: liveDoc } = await owner.api.spaces.getDocumentById(space.id, (live as any).documentId);
    expect(JSON.stringify(liveDoc)).toContain('v2 of the guide.');
    const { data: viaPage } = await owner.api.spaces.getPageById(space.id, guide.id, { format: 'document' } as any);
    expect(liveDoc).toEqual((viaPage as any).document);
    await expect(owner.api.spaces.getDocumentById(space.id, 'f'.repeat(40))).rejects.toMatchObject({ code: 404 });
    await expect(stranger.api.spaces.getDocumentById(space.id, (live as any).documentId)).rejects.toMatchObject({ code: 404 });
  });

  describe('semantic changes', () => {
    it('of a merge revision: what the merge brought, against the revision it was merged into, with the change request', async () => {
      const { data: changes } = await owner.api.spaces.getRevisionSemanticChanges(space.id, merged.id);
      expect(changes.mergedFrom).toMatchObject({ object: 'change-request', subject: 'v2' });
      expect(changes.changes).toEqual([
        {
          type: 'page_edited',
          page: { id: guide.id, type: 'document', title: 'Guide', path: guide.path },
          attributes: { document: { before: guide.documentId, after: expect.any(String) } },
        },
      ]);
      expect(changes.more).toBeUndefined();

      const { data: firstChanges } = await owner.api.spaces.getRevisionSemanticChanges(space.id, first.id);
      expect(firstChanges.changes).toEqual([
        { type: 'page_created', page: { id: guide.id, type: 'document', title: 'Guide', path: guide.path } },
        { type: 'file_created', file: { id: fileId, name: 'dot.png', contentType: 'image/png', downloadURL: expect.stringContaining(fileId) } },
      ]);
      const { data: limited } = await owner.api.spaces.getRevisionSemanticChanges(space.id, first.id, { limit: 1 });
      expect(limited).toMatchObject({ changes: [{ type: 'page_created' }], more: 1 });
    });

    it('of the first revision of a space: its README created', async () => {
      const { data } = await owner.api.spaces.getRevisionSemanticChanges(space.id, first.parents[0]);
      expect(data.changes).toEqual([{ type: 'page_created', page: expect.objectContaining({ title: 'History', type: 'document' }) }]);
      expect(data.mergedFrom).toBeUndefined();
    });

    it('of a change request against its base: pages created, edited, moved and deleted, files', async () => {
      const s = (await owner.api.orgs.createSpace(orgId, { title: 'Changes' } as any)).data;
      const setup = (await owner.api.spaces.createChangeRequest(s.id, { subject: 'setup' })).data;
      await owner.api.spaces.updateChangeRequestContent(s.id, setup.id, {
        changes: [
          { operation: 'insert_page', title: 'Keep', ref: 'keep', document: { markdown: '# Keep\n' } },
          { operation: 'insert_page', title: 'Mover', document: { markdown: '# Mover\n' } },
          { operation: 'insert_page', title: 'Doomed', document: { markdown: '# Doomed\n' } },
        ],
      });
      await owner.api.spaces.mergeChangeRequest(s.id, setup.id);
      const pages = Object.fromEntries(((await owner.api.spaces.getCurrentRevision(s.id)).data.pages as any[]).map((p) => [p.title, p]));
      const cr = (await owner.api.spaces.createChangeRequest(s.id, { subject: 'reshape' })).data;
      await owner.api.spaces.updateChangeRequestContent(s.id, cr.id, {
        changes: [
          { operation: 'update_page', page: pages.Keep.id, title: 'Kept', document: { markdown: '# Kept\n\nMore.\n' } },
          { operation: 'update_page', page: pages.Mover.id, into: pages.Keep.id },
          { operation: 'delete_page', page: pages.Doomed.id },
          { operation: 'insert_page', title: 'Fresh', document: { markdown: '# Fresh\n' } },
          { operation: 'insert_files', files: [{ name: 'pic.png', contentType: 'image/png', base64: PNG }] },
        ],
      });
      const { data } = await owner.api.spaces.getChangeRequestChanges(s.id, cr.id, { limit: 100 });
      const byType = (type: string) => data.changes.filter((c: any) => c.type === type);
      expect(byType('page_edited')).toEqual([
        expect.objectContaining({ page: expect.objectContaining({ id: pages.Keep.id, title: 'Kept' }), attributes: expect.objectContaining({ title: { before: 'Keep', after: 'Kept' } }) }),
      ]);
      expect(byType('page_moved')).toEqual([
        { type: 'page_moved', page: expect.objectContaining({ id: pages.Mover.id }), parent: { after: expect.objectContaining({ id: pages.Keep.id }) } },
      ]);
      expect(byType('page_deleted')).toEqual([{ type: 'page_deleted', page: expect.objectContaining({ id: pages.Doomed.id, title: 'Doomed' }) }]);
      expect(byType('page_created')).toEqual([{ type: 'page_created', page: expect.objectContaining({ title: 'Fresh' }) }]);
      expect(byType('file_created')).toEqual([{ type: 'file_created', file: expect.objectContaining({ name: 'pic.png' }) }]);
      // By number too, and a change request with nothing in it has no changes.
      expect((await owner.api.spaces.getChangeRequestChanges(s.id, String(cr.number), { limit: 100 })).data).toEqual(data);
      const empty = (await owner.api.spaces.createChangeRequest(s.id, { subject: 'empty' })).data;
      expect((await owner.api.spaces.getChangeRequestChanges(s.id, empty.id)).data).toEqual({ changes: [] });
    });

    it('404 for a revision or change request the space does not have, 400 for a bad limit, 404 for strangers', async () => {
      const other = (await owner.api.orgs.createSpace(orgId, { title: 'Elsewhere' } as any)).data;
      await expect(owner.api.spaces.getRevisionSemanticChanges(space.id, other.revision)).rejects.toMatchObject({ code: 404 });
      await expect(owner.api.spaces.getRevisionSemanticChanges(space.id, 'f'.repeat(40))).rejects.toMatchObject({ code: 404 });
      await expect(owner.api.spaces.getChangeRequestChanges(space.id, 'nope')).rejects.toMatchObject({ code: 404 });
      expect((await q.http('GET', `/v1/spaces/${space.id}/revisions/${first.id}/changes?limit=0`, { token: owner.token })).status).toBe(400);
      await expect(stranger.api.spaces.getRevisionSemanticChanges(space.id, first.id)).rejects.toMatchObject({ code: 404 });
      await expect(stranger.api.spaces.getChangeRequestChanges(space.id, openCr.id)).rejects.toMatchObject({ code: 404 });
      const { data } = await reader.api.spaces.getChangeRequestChanges(space.id, openCr.id);
      expect(data.changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: guide.id }) })]);
    });
  });

  it("revisions are read with the space's permissions: any role reads, others get 404, no token 401", async () => {
    const { data: asReader } = await reader.api.spaces.getPageInRevisionById(space.id, first.id, guide.id, { format: 'markdown' });
    expect((asReader as any).markdown).toBe('# Guide\n\nv1 of the guide.\n');
    await reader.api.spaces.getRevisionById(space.id, first.id);
    await expect(stranger.api.spaces.getRevisionById(space.id, first.id)).rejects.toMatchObject({ code: 404 });
    await expect(stranger.api.spaces.getPageInRevisionById(space.id, first.id, guide.id)).rejects.toMatchObject({ code: 404 });
    await expect(stranger.api.spaces.getPageInRevisionByPath(space.id, first.id, guide.path)).rejects.toMatchObject({ code: 404 });
    await expect(stranger.api.spaces.listFilesInRevisionById(space.id, first.id)).rejects.toMatchObject({ code: 404 });
    const anonymous = await q.http('GET', `/v1/spaces/${space.id}/revisions/${first.id}/page/${guide.id}`);
    expect(anonymous.status).toBe(401);
  });
});
