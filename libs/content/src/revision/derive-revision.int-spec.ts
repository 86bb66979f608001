import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { walkPages } from '@quire/domain';
import { ContentStore } from '../store';
import { deriveRevision } from './derive-revision';
import { writeInitialRevision } from './initial-revision';

const PNG_1x1 = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
const enc = (s: string) => new TextEncoder().encode(s);

describe('deriveRevision', () => {
  let dir: string;
  let store: ContentStore;
  let n = 0;
  const newId = () => `id${++n}`;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-derive-'));
    store = new ContentStore({ dataDir: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('given a new space, its first revision has one Introduction page', async () => {
    const revision = await writeInitialRevision(store, 'space1', { now: new Date(0) });
    const derived = await deriveRevision({ store, spaceId: 'space1', revision, newId });
    expect(derived.pages).toEqual([expect.objectContaining({ kind: 'sheet', title: 'Introduction', file: 'README.md', children: [] })]);
  });

  it('reads pages, front matter and assets, and keeps ids for unchanged paths', async () => {
    const files = {
      'README.md': enc('# Home\n'),
      'SUMMARY.md': enc('# Table of contents\n\n* [Home](README.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [Linux](guides/linux.md)\n'),
      'guides/install.md': enc('---\ndescription: How to install\nhidden: true\n---\n# Install\n\n![](../.gitbook/assets/pic.png)\n'),
      'guides/linux.md': enc('# Linux\n'),
      '.gitbook/assets/pic.png': PNG_1x1,
    };
    const r1 = await store.writeRevision({ spaceId: 'space2', parents: [], files, message: 'one', author: { name: 'a', email: 'a@b' }, timestamp: new Date(0) });
    const first = await deriveRevision({ store, spaceId: 'space2', revision: r1, newId });
    const flat = [...walkPages(first.pages)].map(({ page }) => page);
    expect(flat.map((p) => [p.kind, p.title])).toEqual([
      ['sheet', 'Home'],
      ['group', 'Guides'],
      ['sheet', 'Install'],
      ['sheet', 'Linux'],
    ]);
    expect(flat[2]).toMatchObject({ description: 'How to install', hidden: true, file: 'guides/install.md' });
    expect(first.files).toEqual([expect.objectContaining({ name: 'pic.png', contentType: 'image/png', width: 1, height: 1 })]);

    const r2 = await store.writeRevision({
      spaceId: 'space2',
      parents: [r1],
      files: { ...files, 'guides/linux.md': enc('# Linux\n\nChanged.\n') },
      message: 'two',
      author: { name: 'a', email: 'a@b' },
      timestamp: new Date(1000),
    });
    const second = await deriveRevision({ store, spaceId: 'space2', revision: r2, previous: first, newId });
    const ids = (t: typeof first.pages) => [...walkPages(t)].map(({ page }) => page.id);
    expect(ids(second.pages)).toEqual(ids(first.pages));
    expect(second.files[0].id).toBe(first.files[0].id);
    expect([...walkPages(second.pages)][3].page.blob).not.toBe(flat[3].blob);
  });
});

describe('deriveRevision files outside .gitbook/assets', () => {
  it('lists every non-page file (legacy images/ and assets/ folders too), with image dimensions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-derive-files-'));
    try {
      const store = new ContentStore({ dataDir: dir });
      const files = {
        'README.md': enc('# Home\n\n![](images/legacy.png)\n\n[Doc](assets/doc.pdf)\n'),
        'SUMMARY.md': enc('* [Home](README.md)\n'),
        '.gitbook.yaml': enc('redirects:\n  old: README.md\n'),
        '.gitbook/includes/snippet.md': enc('Snippet\n'),
        'images/legacy.png': PNG_1x1,
        'assets/doc.pdf': enc('%PDF-1.4'),
        '.gitbook/assets/up/pic.png': PNG_1x1,
      };
      const revision = await store.writeRevision({ spaceId: 'files1', parents: [], files, message: 'one', author: { name: 'a', email: 'a@b' }, timestamp: new Date(0) });
      let n = 0;
      const derived = await deriveRevision({ store, spaceId: 'files1', revision, newId: () => `f${++n}` });
      expect(derived.files.map((f) => [f.file, f.name, f.contentType, f.width ?? null]).sort()).toEqual([
        ['.gitbook/assets/up/pic.png', 'up/pic.png', 'image/png', 1],
        ['assets/doc.pdf', 'doc.pdf', 'application/pdf', null],
        ['images/legacy.png', 'legacy.png', 'image/png', 1],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deriveRevision front matter page options', () => {
  it('maps layout, cover/coverY and if to the page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-derive-fm-'));
    try {
      const store = new ContentStore({ dataDir: dir });
      const fm = [
        '---',
        'cover: ../.gitbook/assets/cover%20(1).png',
        'coverY: -42',
        'layout:',
        '  width: wide',
        '  cover:',
        '    visible: true',
        '    size: full',
        '  title:',
        '    visible: false',
        '  outline:',
        '    visible: false',
        '  pagination: false',
        'if: visitor.claims.beta',
        '---',
        '# Page',
        '',
      ].join('\n');
      const files = {
        'README.md': enc('---\ncover: https://cdn.example.com/c.png\n---\n# Home\n'),
        'SUMMARY.md': enc('* [Home](README.md)\n* [Page](guide/page.md)\n'),
        'guide/page.md': enc(fm),
        '.gitbook/assets/cover (1).png': PNG_1x1,
      };
      const revision = await store.writeRevision({ spaceId: 'fm1', parents: [], files, message: 'one', author: { name: 'a', email: 'a@b' }, timestamp: new Date(0) });
      let n = 0;
      const derived = await deriveRevision({ store, spaceId: 'fm1', revision, newId: () => `x${++n}` });
      const coverId = derived.files.find((f) => f.file === '.gitbook/assets/cover (1).png')!.id;
      expect(derived.pages[0].cover).toEqual({ url: 'https://cdn.example.com/c.png', yPos: 0 });
      expect(derived.pages[0].layout).toBeUndefined();
      expect(derived.pages[1]).toMatchObject({
        layout: { width: 'wide', cover: true, coverSize: 'full', title: false, outline: false, pagination: false },
        cover: { file: coverId, yPos: -42 },
        condition: 'visitor.claims.beta',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deriveRevision of a revision without pages', () => {
  it('gives an empty tree for an empty space', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-derive-empty-'));
    try {
      const store = new ContentStore({ dataDir: dir });
      const revision = await writeInitialRevision(store, 'empty1', { empty: true, now: new Date(0) });
      const derived = await deriveRevision({ store, spaceId: 'empty1', revision, newId: () => 'x' });
      expect(derived.pages).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
