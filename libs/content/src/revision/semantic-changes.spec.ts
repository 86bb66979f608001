import type { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { semanticChanges } from './semantic-changes';

const page = (id: string, extra: Partial<RevisionPageNode> = {}): RevisionPageNode => ({
  id,
  kind: 'sheet',
  title: id.toUpperCase(),
  slug: id,
  path: id,
  file: `${id}.md`,
  blob: `blob-${id}`,
  children: [],
  ...extra,
});
const file = (id: string, extra: Partial<RevisionFileNode> = {}): RevisionFileNode => ({
  id,
  name: `${id}.png`,
  file: `.gitbook/assets/${id}.png`,
  blob: `blob-${id}`,
  contentType: 'image/png',
  size: 10,
  ...extra,
});

describe('semanticChanges', () => {
  it('given the same tree, finds nothing', () => {
    const tree = { pages: [page('a', { children: [page('b')] })], files: [file('f')] };
    expect(semanticChanges(tree, structuredClone(tree))).toEqual([]);
  });

  it('finds pages created, edited (only the attributes that changed) and deleted, in tree order', () => {
    const before = { pages: [page('a'), page('b'), page('gone')], files: [] };
    const after = { pages: [page('a', { title: 'Renamed', blob: 'blob-a2' }), page('b'), page('new')], files: [] };
    expect(semanticChanges(before, after)).toEqual([
      { type: 'page_edited', page: after.pages[0], attributes: { title: { before: 'A', after: 'Renamed' }, document: { before: 'blob-a', after: 'blob-a2' } } },
      { type: 'page_created', page: after.pages[2] },
      { type: 'page_deleted', page: before.pages[2] },
    ]);
  });

  it('an attribute that appears or disappears has only the side that has it', () => {
    const before = { pages: [page('a', { description: 'Old' })], files: [] };
    const after = { pages: [page('a', { emoji: '1f600' })], files: [] };
    expect(semanticChanges(before, after)).toEqual([
      { type: 'page_edited', page: after.pages[0], attributes: { emoji: { after: '1f600' }, description: { before: 'Old' } } },
    ]);
  });

  it('a page under another parent is moved (with both parents; none at the root), and edited too when it also changed', () => {
    const child = page('c');
    const before = { pages: [page('a', { children: [child] }), page('b')], files: [] };
    const moved = page('c', { slug: 'c2' });
    const after = { pages: [page('a'), page('b', { children: [moved] })], files: [] };
    expect(semanticChanges(before, after)).toEqual([
      { type: 'page_edited', page: moved, attributes: { slug: { before: 'c', after: 'c2' } } },
      { type: 'page_moved', page: moved, parent: { before: before.pages[0], after: after.pages[1] } },
    ]);
    const toRoot = { pages: [page('a'), page('b'), page('c')], files: [] };
    expect(semanticChanges(before, toRoot)).toEqual([{ type: 'page_moved', page: toRoot.pages[2], parent: { before: before.pages[0], after: undefined } }]);
  });

  it('links compare their target, groups neither document nor description', () => {
    const before = { pages: [page('l', { kind: 'link', href: 'https://a.test', file: undefined, blob: undefined }), page('g', { kind: 'group', file: undefined, blob: undefined })], files: [] };
    const after = { pages: [page('l', { kind: 'link', href: 'https://b.test', file: undefined, blob: undefined }), page('g', { kind: 'group', description: 'x', file: undefined, blob: undefined })], files: [] };
    expect(semanticChanges(before, after)).toEqual([{ type: 'page_edited', page: after.pages[0], attributes: { target: { before: 'https://a.test', after: 'https://b.test' } } }]);
  });

  it('finds files created, edited and deleted; new bytes of the same size still say size', () => {
    const before = { pages: [], files: [file('same'), file('renamed'), file('gone')] };
    const after = { pages: [], files: [file('same', { blob: 'other' }), file('renamed', { name: 'new.png', size: 12, width: 1, height: 2 }), file('new')] };
    expect(semanticChanges(before, after)).toEqual([
      { type: 'file_edited', file: after.files[0], attributes: { size: { before: 10, after: 10 } } },
      {
        type: 'file_edited',
        file: after.files[1],
        attributes: { name: { before: 'renamed.png', after: 'new.png' }, dimensions: { after: { width: 1, height: 2 } }, size: { before: 10, after: 12 } },
      },
      { type: 'file_created', file: after.files[2] },
      { type: 'file_deleted', file: before.files[2] },
    ]);
  });

  it('from nothing (a first revision), everything is created', () => {
    const after = { pages: [page('a', { children: [page('b')] })], files: [file('f')] };
    expect(semanticChanges({ pages: [], files: [] }, after).map((c) => c.type)).toEqual(['page_created', 'page_created', 'file_created']);
  });
});
