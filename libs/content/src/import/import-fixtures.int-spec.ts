/**
 * Imports the real documentation repositories in /work/shared/fixtures over smart HTTP:
 * every SUMMARY page must arrive, and every asset a page references must arrive or be
 * reported. Asset references are found here with a plain regex, independently of the
 * markdown module the pipeline uses.
 */
import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { memorySourceTree, referencedAssetPaths, type ImportedPage } from '@quire/content/gitsync';
import { cloneBundle, startGitHttpServer, type GitHttpServer } from '@quire/test-support/git-http-server';
import { referencedAssets } from '@quire/content/markdown';
import { mayReferenceAssets } from './collect-import-files';
import { importGitRepository, type GitImportResult } from './import-git-repository';


const execFileAsync = promisify(execFile);
const FIXTURES = process.env.QUIRE_FIXTURES_DIR ?? '/work/shared/fixtures';

let scratch: string;
let server: GitHttpServer;

beforeAll(async () => {
  scratch = await fs.mkdtemp(join(tmpdir(), 'quire-import-fixtures-'));
  for (const name of ['noislabs-gitbook-docs', 'fluent-fluentd-docs-gitbook', 'pgsql-tw-gitbook-docs']) {
    await cloneBundle(join(FIXTURES, `${name}.bundle`), join(scratch, 'repos'), name);
  }
  server = await startGitHttpServer({ root: join(scratch, 'repos') });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(scratch, { recursive: true, force: true });
});

function sheets(pages: ImportedPage[]): ImportedPage[] {
  return pages.flatMap((p) => [...(p.sourcePath ? [p] : []), ...sheets(p.children)]);
}

/** Image and file URLs by regex: Markdown images, <img src>, {% file src %}. */
function imageUrls(markdown: string): string[] {
  const urls: string[] = [];
  for (const m of markdown.matchAll(/!\[[^\]\n]*\]\(\s*(?:<([^>\n]+)>|((?:[^()\s]|\([^()\s]*\))+))/g)) urls.push(m[1] ?? m[2]);
  for (const m of markdown.matchAll(/<img\s[^>]*?src="([^"]+)"|\{%\s*file\s+src="([^"]+)"/g)) urls.push(m[1] ?? m[2]);
  return urls;
}

async function repositoryPaths(name: string, branch: string): Promise<string[]> {
  const { stdout } = await execFileAsync('git', ['--git-dir', join(scratch, 'repos', `${name}.git`), 'ls-tree', '-r', '-z', '--name-only', branch], {
    maxBuffer: 64 << 20,
  });
  return stdout.split('\0').filter(Boolean);
}

/** Checks the import against the repository: pages, then assets. Returns the asset count. */
async function expectComplete(name: string, branch: string, result: GitImportResult, pageCount: number): Promise<number> {
  const { layout, files, warnings } = result;
  const pages = sheets(layout.pages);
  expect(pages).toHaveLength(pageCount);
  const relative = (path: string) => path.slice(layout.docsRoot.length);
  expect(pages.filter((p) => !files[relative(p.sourcePath as string)]).map((p) => p.sourcePath)).toEqual([]);

  const tree = memorySourceTree(Object.fromEntries((await repositoryPaths(name, branch)).map((path) => [path, ''])));
  const expectedAssets = new Set<string>();
  const unreported: string[] = [];
  for (const page of pages) {
    const markdown = new TextDecoder().decode(files[relative(page.sourcePath as string)]);
    const refs = referencedAssetPaths(page.sourcePath as string, imageUrls(markdown), tree, { docsRoot: layout.docsRoot });
    for (const found of refs.found) expectedAssets.add(relative(found.path));
    for (const url of refs.missing) {
      if (!warnings.some((w) => w.startsWith(`${page.sourcePath}: `) && w.includes(url))) unreported.push(`${page.sourcePath}: ${url}`);
    }
  }
  expect([...expectedAssets].filter((path) => !files[path])).toEqual([]);
  expect(unreported).toEqual([]);
  for (const asset of result.assets) expect(files[asset.path]?.byteLength).toBe(asset.size);
  // The import skips the full parse of pages that show no asset syntax: check on real pages
  // that it never skips one that references a file.
  const skippedWrongly = pages.filter((page) => {
    const markdown = new TextDecoder().decode(files[relative(page.sourcePath as string)]);
    return !mayReferenceAssets(markdown) && referencedAssets(markdown).length > 0;
  });
  expect(skippedWrongly.map((p) => p.sourcePath)).toEqual([]);
  return expectedAssets.size;
}

async function timedImport(name: string, branch: string) {
  const started = performance.now();
  const result = await importGitRepository({
    url: `${server.url}/${name}.git`,
    ref: `refs/heads/${branch}`,
    cacheDir: join(scratch, 'cache'),
    allowedHosts: ['127.0.0.1'],
  });
  const ms = performance.now() - started;
  const assetBytes = result.assets.reduce((sum, a) => sum + a.size, 0);
  console.log(
    `${name}: ${sheets(result.layout.pages).length} pages, ${result.assets.length} assets (${(assetBytes / 1e6).toFixed(1)} MB), ` +
      `${result.warnings.length} warnings, imported in ${ms.toFixed(0)} ms`,
  );
  return result;
}

describe('importGitRepository on real GitBook repositories', () => {
  it('noislabs (main): 22 pages and the screenshots they show', async () => {
    const result = await timedImport('noislabs-gitbook-docs', 'main');
    expect(result.layout.docsRoot).toBe('');
    expect(await expectComplete('noislabs-gitbook-docs', 'main', result, 22)).toBe(3);
    expect(result.assets.find((a) => a.path === '.gitbook/assets/Screenshot 2022-09-11 at 00.06.24 (1).png')).toMatchObject({
      contentType: 'image/png',
      width: expect.any(Number),
      height: expect.any(Number),
    });
  });

  it('fluent-fluentd (1.0): 191 pages, percent-encoded asset names, redirects', async () => {
    const result = await timedImport('fluent-fluentd-docs-gitbook', '1.0');
    // 77 by the gitsync reader's own count; this regex also catches one more image.
    expect(await expectComplete('fluent-fluentd-docs-gitbook', '1.0', result, 191)).toBeGreaterThanOrEqual(77);
    expect(result.files['.gitbook/assets/fluentd-architecture (1) (2) (2) (2) (3).png']).toBeDefined();
    expect(Object.keys(result.layout.redirects)).toHaveLength(35);
  });

  it('pgsql-tw (master): 824 pages under the tw/ root named by book.json', async () => {
    const result = await timedImport('pgsql-tw-gitbook-docs', 'master');
    expect(result.layout.docsRoot).toBe('tw/');
    await expectComplete('pgsql-tw-gitbook-docs', 'master', result, 824);
    expect(new TextDecoder().decode(result.files['preface/01_intro-whatis.md'])).toContain('PostgreSQL');
  });
});
