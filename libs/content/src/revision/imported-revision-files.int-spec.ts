import { execFileSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { walkPages } from '@quire/domain';
import { memorySourceTree, readGitSyncLayout } from '../gitsync';
import type { ImportedPage } from '../gitsync';
import { ContentStore } from '../store';
import { deriveRevision } from './derive-revision';
import { importedRevisionFiles } from './imported-revision-files';

const FIXTURES = join(__dirname, '../../../../../shared/fixtures');

function listFiles(dir: string, root = dir): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  for (const name of readdirSync(dir)) {
    if (name === '.git') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, listFiles(full, root));
    else out[relative(root, full).split('\\').join('/')] = readFileSync(full);
  }
  return out;
}

function* flat(pages: ImportedPage[]): Generator<ImportedPage> {
  for (const p of pages) {
    yield p;
    yield* flat(p.children);
  }
}

describe('importedRevisionFiles: a stored import reads back as the same tree', () => {
  const work = mkdtempSync(join(tmpdir(), 'quire-imported-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each([
    ['noislabs-gitbook-docs.bundle', 'main'],
    ['fluent-fluentd-docs-gitbook.bundle', '1.0'],
    ['pgsql-tw-gitbook-docs.bundle', 'master'],
  ])('%s', async (bundle, branch) => {
    const dir = join(work, bundle);
    execFileSync('git', ['clone', '-q', '--branch', branch, join(FIXTURES, bundle), dir]);
    const all = listFiles(dir);
    const layout = await readGitSyncLayout(memorySourceTree(all));
    const docs: Record<string, Uint8Array> = {};
    for (const [path, bytes] of Object.entries(all)) if (path.startsWith(layout.docsRoot)) docs[path.slice(layout.docsRoot.length)] = bytes;

    const store = new ContentStore({ dataDir: join(work, 'store') });
    const spaceId = bundle.replace(/[^A-Za-z0-9]/g, '');
    const revision = await store.writeRevision({
      spaceId,
      parents: [],
      files: importedRevisionFiles(layout, docs),
      message: 'import',
      author: { name: 'a', email: 'a@b' },
      timestamp: new Date(0),
    });
    let n = 0;
    const derived = await deriveRevision({ store, spaceId, revision, newId: () => `p${++n}` });
    const expected = [...flat(layout.pages)].map((p) => [p.kind, p.title, p.path]);
    const actual = [...walkPages(derived.pages)].map(({ page }) => [page.kind, page.title, page.path]);
    expect(actual).toEqual(expected);
  }, 60_000);
});

describe('importedRevisionFiles: .gitbook.yaml redirects', () => {
  it('keeps the redirects whose target is a page, so the revision reads back with them', async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const tree = memorySourceTree({
      '.gitbook.yaml': 'root: ./docs/\nredirects:\n  old/intro: intro.md\n  legacy/page: guide/page.md\n  gone/one: missing.md\n  gone/two: also-missing.md\n',
      'docs/README.md': '# Home\n',
      'docs/SUMMARY.md': '* [Home](README.md)\n* [Intro](intro.md)\n* [Guide](guide/page.md)\n',
      'docs/intro.md': '# Intro\n',
      'docs/guide/page.md': '# Page\n',
    });
    const layout = await readGitSyncLayout(tree);
    expect(layout.warnings).toEqual([
      '.gitbook.yaml: 2 redirects point to files that are not imported pages (gone/one -> docs/missing.md, gone/two -> docs/also-missing.md); ignored',
    ]);
    const docs = { 'README.md': enc('# Home\n'), 'intro.md': enc('# Intro\n'), 'guide/page.md': enc('# Page\n') };
    const files = importedRevisionFiles(layout, docs);
    const yaml = new TextDecoder().decode(files['.gitbook.yaml']);
    expect(yaml).toContain('old/intro: intro.md');
    expect(yaml).toContain('legacy/page: guide/page.md');
    expect(yaml).not.toContain('missing');
    const again = await readGitSyncLayout(memorySourceTree(files));
    expect(again.redirects).toEqual(layout.redirects);
    expect(again.redirects).toEqual({ 'old/intro': 'intro', 'legacy/page': 'page' });
    expect(again.warnings).toEqual([]);
  });
});
