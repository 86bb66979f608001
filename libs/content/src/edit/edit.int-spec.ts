import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { RevisionCreated, RevisionPageNode, walkPages } from '@quire/domain';
import { revisionCreatedFor } from '../revision';
import { ContentStore } from '../store';
import { ContentChange } from './apply-content-changes';
import { EditableRevision, loadEditableRevision, pageText } from './editable-revision';
import { commitEditedRevision } from './commit-edited-revision';
import { mergeRevisions } from './merge-revisions';
import { writeContentChanges } from './write-content-changes';

const enc = (s: string) => new TextEncoder().encode(s);
const author = { name: 'Test', email: 'test@example.com' };

describe('content edits and page-level merges (real git store)', () => {
  let dir: string;
  let store: ContentStore;
  let n = 0;
  const newId = () => `id${String(++n).padStart(4, '0')}`;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-edit-'));
    store = new ContentStore({ dataDir: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function seed(spaceId: string): Promise<RevisionCreated> {
    const files = {
      'README.md': enc('# Home\n\nWelcome.\n'),
      'SUMMARY.md': enc('# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n* [FAQ](faq.md)\n'),
      'guide/README.md': enc('# Guide\n\nline 1\nline 2\nline 3\n'),
      'guide/install.md': enc('---\ndescription: How to install\n---\n\n# Install\n\nStep one.\n'),
      'faq.md': enc('# FAQ\n\nQ?\n\nA.\n'),
      '.gitbook/assets/logo.txt': enc('logo'),
    };
    const revision = await store.writeRevision({ spaceId, parents: [], files, message: 'seed', author, timestamp: new Date(0) });
    return (await revisionCreatedFor({ store, spaceId, revision, parents: [], kind: 'initial', now: new Date(0), newId })).event;
  }
  const tree = (e: RevisionCreated) => ({ revision: e.data.revision, pages: e.data.pages, files: e.data.files });
  const byTitle = (pages: RevisionPageNode[]) => Object.fromEntries([...walkPages(pages)].map(({ page }) => [page.title, page]));
  const load = (spaceId: string, e: RevisionCreated) => loadEditableRevision(store, spaceId, tree(e));
  const limits = { maxBytes: 1_000_000, maxBlocks: 10_000 };
  async function edit(spaceId: string, from: RevisionCreated, changes: ContentChange[]) {
    return writeContentChanges({
      store,
      revision: await load(spaceId, from),
      changes,
      revertSource: async () => ({ pages: (await load(spaceId, from)).pages, text: (p) => pageText(store, spaceId, p) }),
      limits,
      parents: [from.data.revision],
      author,
      now: new Date(1000),
      newId,
    });
  }
  const markdownOf = async (spaceId: string, page: RevisionPageNode) => new TextDecoder().decode(await store.readBlob(spaceId, page.blob!));

  it('re-lays out an unchanged revision with the same pages, ids and blobs', async () => {
    const first = await seed('s0');
    const again = await commitEditedRevision({ store, revision: await load('s0', first), parents: [first.data.revision], kind: 'edits', message: 'noop', author, now: new Date(1), newId });
    const strip = (pages: RevisionPageNode[]) => [...walkPages(pages)].map(({ page }) => [page.id, page.title, page.path, page.blob]);
    expect(strip(again.data.pages)).toEqual(strip(first.data.pages));
    expect(again.data.files.map((f) => f.id)).toEqual(first.data.files.map((f) => f.id));
  });

  it('applies inserts, updates, moves and deletes; pages keep their ids whatever their new paths', async () => {
    const first = await seed('s1');
    const ids = byTitle(first.data.pages);
    const { event, outcomes } = await edit('s1', first, [
      { operation: 'insert_page', title: 'New', document: { markdown: 'Hello **world**, see [install](/pages/' + ids.Install.id + ').' }, into: ids.FAQ.id, ref: 'new' },
      { operation: 'update_page', page: ids.Install.id, title: 'Installing', description: 'Updated' },
      { operation: 'update_page', page: ids.Guide.id, into: null, at: 0 },
      { operation: 'delete_page', page: ids.Home.id },
    ]);
    const after = byTitle(event.data.pages);
    expect(Object.keys(after).sort()).toEqual(['FAQ', 'Guide', 'Installing', 'New']);
    expect(after.Guide.id).toBe(ids.Guide.id);
    expect(after.Installing.id).toBe(ids.Install.id);
    expect(after.FAQ.id).toBe(ids.FAQ.id);
    expect(after.FAQ.children.map((c) => c.title)).toEqual(['New']);
    expect(after.Installing.description).toBe('Updated');
    // Guide is now the first page, so it is the README. Every other page keeps its file (an
    // edit moves no file, even FAQ's now that it has a child); the new page gets GitBook's layout.
    expect(after.Guide.file).toBe('README.md');
    expect(after.FAQ.file).toBe(ids.FAQ.file);
    expect(after.Installing.file).toBe(ids.Install.file);
    expect(after.New.file).toBe('faq/new.md');
    const newText = await markdownOf('s1', after.New);
    expect(newText).toContain('# New');
    expect(newText).toMatch(/\[install\]\(\.\.\/guide\/install\.md\)/);
    expect(outcomes.map((o) => o.object)).toEqual(['created_page', 'updated_page', 'updated_page', 'deleted_page']);
    expect(event.data.files.map((f) => f.id)).toEqual(first.data.files.map((f) => f.id));
  });

  it('takes the title from front matter or heading first, and rejects a whole batch on one bad change', async () => {
    const first = await seed('s2');
    const { event } = await edit('s2', first, [
      { operation: 'insert_page', title: 'Ignored', document: { markdown: '---\ntitle: From front matter\n---\n\nBody' } },
      { operation: 'insert_page', title: 'Ignored too', document: { markdown: '# From heading\n\nBody' } },
      { operation: 'insert_page', title: 'From title', document: { markdown: 'Body only' } },
    ]);
    expect(Object.keys(byTitle(event.data.pages))).toEqual(expect.arrayContaining(['From front matter', 'From heading', 'From title']));
    await expect(edit('s2', first, [{ operation: 'insert_page', document: { markdown: 'x' } }, { operation: 'delete_page', page: 'nope' }])).rejects.toMatchObject({ code: 'not_found' });
    const faq = byTitle(first.data.pages).FAQ.id;
    await expect(edit('s2', first, [{ operation: 'insert_page', slug: 'faq', document: {} }])).rejects.toMatchObject({ code: 'bad_request' });
    await expect(edit('s2', first, [{ operation: 'update_page', page: byTitle(first.data.pages).Guide.id, into: byTitle(first.data.pages).Install.id }])).rejects.toMatchObject({ code: 'bad_request' });
    expect(faq).toBeDefined();
  });

  it("rejects a document whose nodes below the top do not follow GitBook's schema as a bad request", async () => {
    const first = await seed('s2b');
    const text = (leaves: unknown) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves }] });
    const malformed = [
      // A leaf without marks, holding a number.
      { object: 'document', nodes: [text([{ text: 5 }])] },
      // Children that are not a list.
      { object: 'document', nodes: [{ object: 'block', type: 'code', data: { syntax: {} }, nodes: 'x' }] },
      // An image without its data.
      { object: 'document', nodes: [{ object: 'block', type: 'images', nodes: [{ object: 'block', type: 'image' }] }] },
    ];
    for (const document of malformed) {
      await expect(edit('s2b', first, [{ operation: 'insert_page', title: 'Bad', document: { document } } as any])).rejects.toMatchObject({
        code: 'bad_request',
        message: expect.stringContaining("does not follow GitBook's document schema"),
      });
    }
    // A well-formed one goes in.
    const { event } = await edit('s2b', first, [{ operation: 'insert_page', title: 'Good', document: { document: { object: 'document', nodes: [text([{ object: 'leaf', text: 'Fine', marks: [] }])] } } } as any]);
    expect(event.data.pages.some((p: any) => p.title === 'Good')).toBe(true);
  });

  it('reverts a page to the base: text, title and place', async () => {
    const first = await seed('s3');
    const ids = byTitle(first.data.pages);
    const { event: edited } = await edit('s3', first, [{ operation: 'update_page', page: ids.FAQ.id, title: 'Questions', document: { markdown: 'Changed' } }, { operation: 'delete_page', page: ids.Install.id }]);
    const { event: reverted } = await writeContentChanges({
      store,
      revision: await load('s3', edited),
      changes: [{ operation: 'revert_page', page: ids.FAQ.id }, { operation: 'revert_page', page: ids.Install.id }],
      revertSource: async () => ({ pages: (await load('s3', first)).pages, text: (p) => pageText(store, 's3', p) }),
      limits,
      parents: [edited.data.revision],
      author,
      now: new Date(2000),
      newId,
    });
    const after = byTitle(reverted.data.pages);
    expect(after.FAQ.id).toBe(ids.FAQ.id);
    expect(after.FAQ.blob).toBe(ids.FAQ.blob);
    expect(after.Install.id).toBe(ids.Install.id);
    expect(after.Guide.children.map((c) => c.id)).toEqual([ids.Install.id]);
  });

  it('merges by page: edits of a moved page, pages added at the same place, and same-line edits as conflicts', async () => {
    const base = await seed('s4');
    const ids = byTitle(base.data.pages);
    const { event: ours } = await edit('s4', base, [
      { operation: 'update_page', page: ids.Guide.id, document: { markdown: '# Guide\n\nline 1 (ours)\nline 2\nline 3\n' } },
      { operation: 'insert_page', title: 'Ours', document: {} },
    ]);
    const { event: theirs } = await edit('s4', base, [
      { operation: 'update_page', page: ids.Guide.id, document: { markdown: '# Guide\n\nline 1\nline 2\nline 3 (theirs)\n' } },
      { operation: 'update_page', page: ids.FAQ.id, into: ids.Install.id },
      { operation: 'insert_page', title: 'Theirs', document: {} },
    ]);
    const [b, o, t] = await Promise.all([load('s4', base), load('s4', ours), load('s4', theirs)]);
    const clean = await mergeRevisions({ store, base: b, ours: o, theirs: t });
    expect(clean.conflicts).toEqual([]);
    const mergedEvent = await commitEditedRevision({ store, revision: clean.revision, parents: [ours.data.revision, theirs.data.revision], kind: 'merge', message: 'merge', author, now: new Date(3), newId });
    const merged = byTitle(mergedEvent.data.pages);
    expect(mergedEvent.data.pages.map((p) => p.title)).toEqual(['Home', 'Guide', 'Ours', 'Theirs']);
    expect(merged.Install.children.map((c) => c.id)).toEqual([ids.FAQ.id]);
    expect(await markdownOf('s4', merged.Guide)).toBe('# Guide\n\nline 1 (ours)\nline 2\nline 3 (theirs)\n');

    const { event: clash } = await edit('s4', base, [{ operation: 'update_page', page: ids.Guide.id, document: { markdown: '# Guide\n\nline 1 (clash)\nline 2\nline 3\n' } }]);
    const conflicted = await mergeRevisions({ store, base: b, ours: o, theirs: await load('s4', clash), labels: { ours: 'space', theirs: 'change request' } });
    expect(conflicted.conflicts).toEqual([{ kind: 'content', pageId: ids.Guide.id, path: 'guide' }]);
    const guide = conflicted.revision.pages.find((p) => p.id === ids.Guide.id)!;
    expect(guide.markdown).toContain('<<<<<<< space\nline 1 (ours)\n=======\nline 1 (clash)\n>>>>>>> change request\n');
  });

  it('keeps a page one side changed and the other deleted, and reports it', async () => {
    const base = await seed('s5');
    const ids = byTitle(base.data.pages);
    const { event: ours } = await edit('s5', base, [{ operation: 'delete_page', page: ids.Guide.id }]);
    const { event: theirs } = await edit('s5', base, [{ operation: 'update_page', page: ids.Install.id, document: { markdown: 'New install text' } }]);
    const result = await mergeRevisions({ store, base: await load('s5', base), ours: await load('s5', ours), theirs: await load('s5', theirs) });
    expect(result.conflicts.map((c) => c.kind).sort()).toEqual(['delete-modify', 'delete-modify']);
    const titles = (revision: EditableRevision) => revision.pages.map((p) => [p.title, p.children.map((c) => c.title)]);
    expect(titles(result.revision)).toEqual([['Home', []], ['Guide', ['Install']], ['FAQ', []]]);
  });
});
