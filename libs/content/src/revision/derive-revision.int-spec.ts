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
