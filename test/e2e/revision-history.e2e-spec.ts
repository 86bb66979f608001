import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { until } from '../chaos/chaos-support';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

/** Quire's extensions beyond GitBook's revision reads: the history, a page's history, restore and page diffs. */
describe('revision history, restore and page diff (e2e)', () => {
  let q: TestQuire;
  let owner: User;
  let reader: User;
  let editor: User;
  let reviewer: User;
  let stranger: User;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    [owner, reader, editor, reviewer, stranger] = await Promise.all(['Owner', 'Reader', 'Editor', 'Reviewer', 'Stranger'].map((n) => q.createUser(n)));
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'History Org' } })).body.id;
    for (const [user, role] of [
      [reader, 'read'],
      [editor, 'edit'],
      [reviewer, 'review'],
    ] as const) {
      await owner.api.orgs.updateMemberInOrganizationById(orgId, user.id, { role: role as any });
    }
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  const get = (user: User, path: string) => q.http('GET', path, { token: user.token });
  const restore = (user: User, spaceId: string, revisionId: string, body: unknown = {}) =>
    q.http('POST', `/v1/spaces/${spaceId}/revisions/${revisionId}/restore`, { token: user.token, body });

  /** Merges one change request applying `changes`; answers the new live revision. */
  async function merge(spaceId: string, subject: string, changes: unknown[]): Promise<string> {
    const cr = (await owner.api.spaces.createChangeRequest(spaceId, { subject })).data;
    await owner.api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: changes as any });
    const { data } = await owner.api.spaces.mergeChangeRequest(spaceId, cr.id);
    expect(data.result).toBe('merge');
    return data.revision;
  }

  async function markdownOf(spaceId: string, pageId: string, revision?: string): Promise<string> {
    const path = revision ? `/v1/spaces/${spaceId}/revisions/${revision}/page/${pageId}?format=markdown` : `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`;
    const r = await get(owner, path);
    expect(r.status).toBe(200);
    return r.body.markdown;
  }

  /** A space: initial README, then "Guide" created (v1), then edited (v2). */
  async function historySpace(title: string) {
    const space = (await owner.api.orgs.createSpace(orgId, { title } as any)).data;
    const initial = space.revision;
    const created = await merge(space.id, 'Add the guide', [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nv1 of the guide.\n' } }]);
    const guide = ((await owner.api.spaces.getCurrentRevision(space.id)).data.pages as any[]).find((p) => p.title === 'Guide');
    const edited = await merge(space.id, 'Rewrite the guide', [{ operation: 'update_page', page: guide.id, document: { markdown: '# Guide\n\nv2 of the guide.\n\nWith more.\n' } }]);
    return { space, initial, created, edited, guide };
  }

  describe('the history', () => {
    it('lists every revision of the space, newest first, with its type, author, time, parents and change request', async () => {
      const { space, initial, created, edited } = await historySpace('Listed');
      const r = await get(reader, `/v1/spaces/${space.id}/revisions`);
      expect(r.status).toBe(200);
      expect(r.body.items.map((i: any) => i.id)).toEqual([edited, created, initial]);
      expect(r.body.items[0]).toMatchObject({
        object: 'revision-history-entry',
        type: 'merge',
        kind: 'merge',
        // The space's revision before, then the change request's head.
        parents: [created, expect.any(String)],
        author: { object: 'user', id: owner.id, displayName: 'Owner' },
        changeRequest: { number: 2, subject: 'Rewrite the guide' },
        urls: { location: expect.stringContaining(`/v1/spaces/${space.id}/revisions/${edited}`) },
      });
      expect(Date.parse(r.body.items[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(r.body.items[1].createdAt));
      expect(r.body.items[2]).toMatchObject({ kind: 'initial', type: 'edits', parents: [] });
      expect(r.body.items[2].changeRequest).toBeUndefined();
      expect(r.body.next).toBeUndefined();
    });

    it('paginates with page and limit (keyset cursors); bad input is a 400, strangers get 404', async () => {
      const { space, initial, created, edited } = await historySpace('Paged');
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const r = await get(owner, `/v1/spaces/${space.id}/revisions?limit=1${page ? `&page=${page}` : ''}`);
        expect(r.status).toBe(200);
        expect(r.body.items).toHaveLength(1);
        seen.push(r.body.items[0].id);
        page = r.body.next?.page;
      } while (page);
      expect(seen).toEqual([edited, created, initial]);
      expect((await get(owner, `/v1/spaces/${space.id}/revisions?page=garbage`)).status).toBe(400);
      expect((await get(owner, `/v1/spaces/${space.id}/revisions?limit=0`)).status).toBe(400);
      expect((await get(stranger, `/v1/spaces/${space.id}/revisions`)).status).toBe(404);
      expect((await q.http('GET', `/v1/spaces/${space.id}/revisions`)).status).toBe(401);
    });

    it("a page's history: the revisions in which it changed", async () => {
      const { space, initial, created, edited, guide } = await historySpace('Page history');
      const readme = ((await owner.api.spaces.getCurrentRevision(space.id)).data.pages as any[]).find((p) => p.title === 'Page history');
      const guideHistory = await get(reader, `/v1/spaces/${space.id}/pages/${guide.id}/revisions`);
      expect(guideHistory.status).toBe(200);
      expect(guideHistory.body.items.map((i: any) => i.id)).toEqual([edited, created]);
      const readmeHistory = await get(owner, `/v1/spaces/${space.id}/pages/${readme.id}/revisions`);
      expect(readmeHistory.body.items.map((i: any) => i.id)).toEqual([initial]);
      const paged = await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/revisions?limit=1`);
      expect(paged.body.items.map((i: any) => i.id)).toEqual([edited]);
      const rest = await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/revisions?limit=1&page=${paged.body.next.page}`);
      expect(rest.body.items.map((i: any) => i.id)).toEqual([created]);
      expect((await get(owner, `/v1/spaces/${space.id}/pages/nosuchpage/revisions`)).body.items).toEqual([]);
    });

    it('imports name the import they came from; standalone imports are in the history too', async () => {
      const root = mkdtempSync(join(tmpdir(), 'quire-history-git-'));
      const git = await startGitHttpServer({ root });
      try {
        await createRepoFromFiles(root, 'docs', { 'README.md': '# Docs\n\nImported.\n', 'SUMMARY.md': '* [Docs](README.md)\n' });
        const space = (await owner.api.orgs.createSpace(orgId, { title: 'Imported' } as any)).data;
        for (const standalone of [false, true]) {
          const r = await q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: owner.token, body: { url: `${git.url}/docs.git`, ref: 'refs/heads/main', standalone } });
          expect(r.status).toBe(204);
          await until('the import to finish', async () => {
            const items = (await get(owner, `/v1/spaces/${space.id}/git/imports`)).body.items;
            return items.filter((i: any) => !['queued', 'running'].includes(i.status)).length > (standalone ? 1 : 0);
          });
        }
        const imports = (await get(owner, `/v1/spaces/${space.id}/git/imports`)).body.items;
        const history = (await get(owner, `/v1/spaces/${space.id}/revisions`)).body.items;
        const importEntries = history.filter((i: any) => i.kind === 'import');
        expect(importEntries).toHaveLength(2);
        for (const entry of importEntries) {
          const run = imports.find((i: any) => i.revision === entry.id);
          expect(entry).toMatchObject({ type: 'edits', import: { id: run.id, standalone: run.standalone, url: `${git.url}/docs.git`, ref: 'refs/heads/main' } });
        }
      } finally {
        await git.close();
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

  describe('restore', () => {
    it('a past revision becomes live as a new revision on top; nothing is rewritten and the restore is in the history', async () => {
      const { space, created, edited, guide } = await historySpace('Restored');
      const r = await restore(reviewer, space.id, created);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ revision: expect.any(String), result: 'restore' });
      const restored = r.body.revision;
      expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe(restored);
      expect(await markdownOf(space.id, guide.id)).toBe('# Guide\n\nv1 of the guide.\n');
      // The page kept its id; the revisions after the restored one are still there as they were.
      expect(await markdownOf(space.id, guide.id, edited)).toBe('# Guide\n\nv2 of the guide.\n\nWith more.\n');

      const history = (await get(owner, `/v1/spaces/${space.id}/revisions`)).body.items;
      expect(history.map((i: any) => i.id).slice(0, 3)).toEqual([restored, edited, created]);
      expect(history[0]).toMatchObject({ type: 'rollback', kind: 'rollback', parents: [edited], restoredFrom: { revision: created }, author: { id: reviewer.id } });
      const { data: revision } = await owner.api.spaces.getRevisionById(space.id, restored);
      expect(revision).toMatchObject({ type: 'rollback', parents: [edited] });
      const { data: changes } = await owner.api.spaces.getRevisionSemanticChanges(space.id, restored);
      expect(changes.changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: guide.id }) })]);

      // The same content again changes nothing.
      const again = await restore(owner, space.id, restored);
      expect(again.body).toEqual({ revision: restored, result: 'unchanged' });
    });

    it('one page as it was: brought back to its text there, the rest of the live content untouched', async () => {
      const space = (await owner.api.orgs.createSpace(orgId, { title: 'One page' } as any)).data;
      const before = await merge(space.id, 'Two pages', [
        { operation: 'insert_page', title: 'Alpha', document: { markdown: '# Alpha\n\nAlpha one.\n' } },
        { operation: 'insert_page', title: 'Beta', document: { markdown: '# Beta\n\nBeta one.\n' } },
      ]);
      const pages = Object.fromEntries(((await owner.api.spaces.getCurrentRevision(space.id)).data.pages as any[]).map((p) => [p.title, p]));
      await merge(space.id, 'Both changed', [
        { operation: 'update_page', page: pages.Alpha.id, document: { markdown: '# Alpha\n\nAlpha two.\n' } },
        { operation: 'update_page', page: pages.Beta.id, document: { markdown: '# Beta\n\nBeta two.\n' } },
      ]);
      const r = await restore(owner, space.id, before, { page: pages.Alpha.id });
      expect(r.status).toBe(200);
      expect(r.body.result).toBe('restore');
      expect(await markdownOf(space.id, pages.Alpha.id)).toBe('# Alpha\n\nAlpha one.\n');
      expect(await markdownOf(space.id, pages.Beta.id)).toBe('# Beta\n\nBeta two.\n');
      const [entry] = (await get(owner, `/v1/spaces/${space.id}/revisions?limit=1`)).body.items;
      expect(entry).toMatchObject({ id: r.body.revision, kind: 'rollback', restoredFrom: { revision: before, page: pages.Alpha.id } });

      // A page deleted since comes back, with its id.
      await merge(space.id, 'Delete beta', [{ operation: 'delete_page', page: pages.Beta.id }]);
      expect((await restore(owner, space.id, before, { page: pages.Beta.id })).status).toBe(200);
      expect(await markdownOf(space.id, pages.Beta.id)).toBe('# Beta\n\nBeta one.\n');
      // A page the revision does not have is a 404, and nothing is written.
      const live = (await owner.api.spaces.getSpaceById(space.id)).data.revision;
      expect((await restore(owner, space.id, space.revision, { page: pages.Alpha.id })).status).toBe(404);
      expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe(live);
    });

    it('takes what merging takes: readers and editors get 403, strangers 404; unknown revisions 404, bad bodies 400; a locked space 403', async () => {
      const { space, created } = await historySpace('Guarded');
      const live = (await owner.api.spaces.getSpaceById(space.id)).data.revision;
      expect((await restore(reader, space.id, created)).status).toBe(403);
      expect((await restore(editor, space.id, created)).status).toBe(403);
      expect((await restore(stranger, space.id, created)).status).toBe(404);
      expect((await q.http('POST', `/v1/spaces/${space.id}/revisions/${created}/restore`, { body: {} })).status).toBe(401);
      const other = (await owner.api.orgs.createSpace(orgId, { title: 'Elsewhere' } as any)).data;
      expect((await restore(owner, space.id, other.revision)).status).toBe(404);
      expect((await restore(owner, space.id, 'f'.repeat(40))).status).toBe(404);
      expect((await restore(owner, space.id, created, { page: 42 })).status).toBe(400);
      expect((await restore(owner, space.id, created, { pages: 'x' })).status).toBe(400);
      expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe(live);
      await owner.api.spaces.updateSpaceById(space.id, { editMode: 'locked' } as any);
      expect((await restore(owner, space.id, created)).status).toBe(403);
    });
  });

  describe('page diff', () => {
    it('the textual diff of one page between two revisions, to the live one unless named', async () => {
      const { space, initial, created, edited, guide } = await historySpace('Diffed');
      const r = await get(reader, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${created}&to=${edited}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        object: 'page-diff',
        page: guide.id,
        from: { revision: created, exists: true, title: 'Guide', path: guide.path },
        to: { revision: edited, exists: true },
        changed: true,
        additions: 3,
        deletions: 1,
      });
      expect(r.body.hunks).toEqual([{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 5, lines: [' # Guide', ' ', '-v1 of the guide.', '+v2 of the guide.', '+', '+With more.'] }]);
      expect(r.body.patch).toContain('--- a/guide');
      expect(r.body.patch).toContain('-v1 of the guide.\n+v2 of the guide.');
      expect((await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${created}`)).body).toEqual(r.body);

      // Before it existed: everything is added. Between equal versions: nothing.
      const fromNothing = await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${initial}&to=${created}`);
      expect(fromNothing.body).toMatchObject({ from: { exists: false }, to: { exists: true }, additions: 3, deletions: 0 });
      const same = await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${edited}&to=${edited}`);
      expect(same.body).toMatchObject({ changed: false, hunks: [], patch: '', additions: 0, deletions: 0 });
    });

    it('404 for revisions of another space or a page in neither revision, 400 without from, 404 for strangers', async () => {
      const { space, created, guide } = await historySpace('Diff errors');
      const other = (await owner.api.orgs.createSpace(orgId, { title: 'Far away' } as any)).data;
      expect((await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${other.revision}`)).status).toBe(404);
      expect((await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${created}&to=${other.revision}`)).status).toBe(404);
      expect((await get(owner, `/v1/spaces/${space.id}/pages/nosuchpage/diff?from=${created}`)).status).toBe(404);
      expect((await get(owner, `/v1/spaces/${space.id}/pages/${guide.id}/diff`)).status).toBe(400);
      expect((await get(stranger, `/v1/spaces/${space.id}/pages/${guide.id}/diff?from=${created}`)).status).toBe(404);
    });
  });
});
