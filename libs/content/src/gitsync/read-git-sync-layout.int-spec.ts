/**
 * Real repositories in GitBook's git-sync layout (git bundles in /work/shared/fixtures),
 * cloned into a temporary directory and read through a SourceTree over the checkout.
 * Expected titles and paths below were checked by hand against each SUMMARY.md.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, promises as fs, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { ImportedLayout, ImportedPage } from './imported-layout';
import { inlineToTitle } from './markdown-inline';
import { parseLink } from './parse-summary';
import { readGitSyncLayout } from './read-git-sync-layout';
import { referencedAssetPaths } from './referenced-asset-paths';
import { percentDecode } from './repo-path';
import { memorySourceTree, readText, type SourceTree } from './source-tree';
import { writeGitSyncLayout, type PageToWrite } from './write-git-sync-layout';

const FIXTURES = process.env.QUIRE_FIXTURES_DIR ?? '/work/shared/fixtures';

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'quire-gitsync-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function checkout(bundle: string, branch: string): SourceTree & { dir: string } {
  const dir = join(workDir, bundle);
  if (!existsSync(dir)) execFileSync('git', ['clone', '--quiet', '--branch', branch, join(FIXTURES, `${bundle}.bundle`), dir]);
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: dir, maxBuffer: 64 << 20 })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);
  return {
    dir,
    files: () => files,
    read: (path) => fs.readFile(join(dir, path)).catch(() => undefined),
  };
}

function flatten(pages: ImportedPage[]): ImportedPage[] {
  return pages.flatMap((p) => [p, ...flatten(p.children)]);
}

function byPath(layout: ImportedLayout, path: string): ImportedPage | undefined {
  return flatten(layout.pages).find((p) => p.path === path);
}

/** Deepest nesting of pages under pages (a top-level page, in a group or not, is 0). */
function pageDepth(pages: ImportedPage[], depth = 0): number {
  return Math.max(
    -1,
    ...pages.map((p) => (p.kind === 'group' ? pageDepth(p.children, depth) : Math.max(depth, pageDepth(p.children, depth + 1)))),
  );
}

/** SUMMARY links to local files, read with a plain regex rather than the parser under
 * test: [title, repository path]. */
function summaryLinks(summary: string, docsRoot: string): Array<[string, string]> {
  const links: Array<[string, string]> = [];
  for (const match of summary.matchAll(/^\s*[*-] \[(.*)\]\(([^)]+\.md)\)\s*$/gm)) {
    links.push([inlineToTitle(match[1]), docsRoot + percentDecode(match[2].replace(/\\_/g, '_'))]);
  }
  return links;
}

async function expectEverySummaryLinkImported(tree: SourceTree, layout: ImportedLayout): Promise<number> {
  const pages = new Map(flatten(layout.pages).map((p) => [p.sourcePath, p]));
  const links = summaryLinks((await readText(tree, layout.summaryPath as string)) as string, layout.docsRoot);
  const mismatches = links.filter(([title, file]) => pages.get(file)?.title !== title);
  expect(mismatches).toEqual([]);
  return links.length;
}

/** Image URLs a page uses: Markdown images, <img src>, {% file src %}. */
function imageUrls(markdown: string): string[] {
  const urls: string[] = [];
  for (const match of markdown.matchAll(/!(\[[^\n]*)/g)) {
    const link = parseLink(match[1]);
    if (link) urls.push(link.destination);
  }
  for (const match of markdown.matchAll(/<img\s[^>]*?src="([^"]+)"|\{%\s*file\s+src="([^"]+)"/g)) urls.push(match[1] ?? match[2]);
  return urls;
}

async function assetReport(tree: SourceTree, layout: ImportedLayout) {
  const found = new Set<string>();
  const missing: string[] = [];
  for (const page of flatten(layout.pages)) {
    if (!page.sourcePath) continue;
    const refs = referencedAssetPaths(page.sourcePath, imageUrls((await readText(tree, page.sourcePath)) ?? ''), tree, {
      docsRoot: layout.docsRoot,
    });
    refs.found.forEach((f) => found.add(f.path));
    missing.push(...refs.missing.map((url) => `${page.sourcePath}: ${url}`));
  }
  return { found, missing };
}

/** Writes the imported tree back out and reads it again. */
async function roundTrip(layout: ImportedLayout): Promise<ImportedLayout> {
  const toWrite = (pages: ImportedPage[]): PageToWrite[] =>
    pages.map((p, i) => ({ ...p, id: `${p.path}#${i}`, children: toWrite(p.children) }));
  return readGitSyncLayout(memorySourceTree(writeGitSyncLayout(toWrite(layout.pages)).files));
}

function shape(pages: ImportedPage[]): unknown[] {
  return pages.map((p) => ({ kind: p.kind, title: p.title, slug: p.slug, path: p.path, linkTitle: p.linkTitle, href: p.href, children: shape(p.children) }));
}

describe('noislabs (main): groups, emoji, a *** rule, no .gitbook.yaml', () => {
  let tree: SourceTree;
  let layout: ImportedLayout;
  beforeAll(async () => {
    tree = checkout('noislabs-gitbook-docs', 'main');
    layout = await readGitSyncLayout(tree);
  });

  it('imports the 22 SUMMARY pages, README first, with their link titles', async () => {
    expect(layout).toMatchObject({ docsRoot: '', readmePath: 'README.md', summaryPath: 'SUMMARY.md', redirects: {}, warnings: [] });
    expect(await expectEverySummaryLinkImported(tree, layout)).toBe(22);
    expect(flatten(layout.pages).filter((p) => p.sourcePath)).toHaveLength(22);
    expect(layout.pages[0]).toMatchObject({ kind: 'sheet', title: '👋 Welcome to Nois Network', slug: 'welcome-to-nois-network', sourcePath: 'README.md' });
  });

  it('has 3 groups with emoji intact, the *** rule ending the first, and depth 2', () => {
    expect(layout.pages.map((p) => `${p.kind} ${p.path} ${p.title}`)).toEqual([
      'sheet welcome-to-nois-network 👋 Welcome to Nois Network',
      'group overview Overview',
      'sheet networks-and-contracts 🌐 Networks and contracts',
      'group use-cases Use Cases',
      'group faq ❓ FAQ',
    ]);
    expect(pageDepth(layout.pages)).toBe(2);
    expect(byPath(layout, 'use-cases/for-validators')).toMatchObject({
      title: '🔐 For Node Operators',
      sourcePath: 'use-cases/for-validators/README.md',
    });
    expect(byPath(layout, 'use-cases/for-dapp-developers/nois-toolbox/js')?.title).toBe('🪛 JS');
    expect(byPath(layout, 'networks-and-contracts/using-the-faucet')?.title).toBe('🚰 Using the faucet');
    // Two separate code points, no zero-width joiner, exactly as in SUMMARY.md.
    expect(byPath(layout, 'faq/techie')?.title).toBe('\u{1F469}\u{1F4BB} \u{1F469}\u{1F4BB} Techie');
  });

  it('resolves every referenced asset', async () => {
    const { found, missing } = await assetReport(tree, layout);
    expect(missing).toEqual([]);
    expect([...found].sort()).toEqual([
      '.gitbook/assets/Screenshot 2022-09-11 at 00.06.24 (1).png',
      '.gitbook/assets/image (1).png',
      '.gitbook/assets/image.png',
    ]);
  });

  it('survives a write/read round trip', async () => {
    expect(shape((await roundTrip(layout)).pages)).toEqual(shape(layout.pages));
  });
});

describe('fluent-fluentd (1.0): .gitbook.yaml, redirects, escaped titles', () => {
  let tree: SourceTree;
  let layout: ImportedLayout;
  beforeAll(async () => {
    tree = checkout('fluent-fluentd-docs-gitbook', '1.0');
    layout = await readGitSyncLayout(tree);
  });

  it('imports the 191 SUMMARY pages with unescaped titles', async () => {
    expect(layout).toMatchObject({ docsRoot: '', readmePath: 'README.md', summaryPath: 'SUMMARY.md' });
    expect(await expectEverySummaryLinkImported(tree, layout)).toBe(191);
    expect(flatten(layout.pages).filter((p) => p.sourcePath)).toHaveLength(191);
    expect(layout.pages[0]).toMatchObject({ title: 'Introduction', slug: 'introduction', sourcePath: 'README.md' });
    expect(byPath(layout, 'quickstart')?.title).toBe('Overview');
    expect(byPath(layout, 'installation/install-by-rpm')?.title).toBe('Install by RPM Package (Red Hat Linux)');
    expect(byPath(layout, 'how-to-guides/http-to-hdfs')?.title).toBe('Data Collection with Hadoop (HDFS)');
    expect(byPath(layout, 'service_discovery')?.title).toBe('Service Discovery Plugins');
  });

  it('keeps the link-less "Obsolete Installation" bullets as empty pages holding their children', () => {
    const obsolete = byPath(layout, 'installation/obsolete-installation');
    expect(obsolete).toMatchObject({ kind: 'sheet', title: 'Obsolete Installation' });
    expect(obsolete?.sourcePath).toBeUndefined();
    expect(obsolete?.children.map((c) => c.title)).toEqual(['Treasure Agent v4 Installation', 'Treasure Agent v3 (EOL) Installation']);
    expect(byPath(layout, 'installation/obsolete-installation/treasure-agent-v3-eol-installation/install-by-rpm-td-agent-v3')).toMatchObject({
      title: 'Install by RPM Package v3 (Red Hat Linux)',
      sourcePath: 'installation/install-by-rpm-td-agent-v3.md',
    });
    expect(layout.warnings.filter((w) => w.includes('has no link'))).toHaveLength(3);
  });

  it('keeps the redirects whose target file is a page and reports the rest', () => {
    // 172 redirects in .gitbook.yaml; 136 name files that do not exist and one
    // (plugins/input/dummy.md) a file SUMMARY.md does not list.
    expect(Object.keys(layout.redirects)).toHaveLength(35);
    expect(layout.redirects['v1.0/articles/quickstart']).toBe('introduction');
    // One warning for all of them, with the count, not 137 lines.
    expect(layout.warnings.filter((w) => w.includes('not imported pages'))).toEqual([expect.stringMatching(/^\.gitbook\.yaml: 137 redirects point to files that are not imported pages \(/)]);
    for (const target of Object.values(layout.redirects)) expect(byPath(layout, target)).toBeDefined();
  });

  it('honours a .gitbook.yaml that moves the readme and summary', async () => {
    const moved: SourceTree = {
      files: () => [...tree.files().filter((f) => f !== '.gitbook.yaml'), '.gitbook.yaml'],
      read: async (path) =>
        path === '.gitbook.yaml'
          ? new TextEncoder().encode('root: ./\nstructure:\n  readme: quickstart/README.md\n  summary: SUMMARY.md\n')
          : tree.read(path),
    };
    const relaid = await readGitSyncLayout(moved);
    expect(relaid.readmePath).toBe('quickstart/README.md');
    expect(relaid.pages[0]).toMatchObject({ title: 'Overview', slug: 'overview', sourcePath: 'quickstart/README.md' });
    expect(relaid.pages[1]).toMatchObject({ title: 'Introduction', slug: 'introduction', sourcePath: 'README.md' });
  });

  it('resolves every percent-encoded asset reference', async () => {
    const { found, missing } = await assetReport(tree, layout);
    expect(missing).toEqual([]);
    expect(found.size).toBe(77);
    expect(found).toContain('.gitbook/assets/fluentd-architecture (1) (2) (2) (2) (3).png');
  });

  it('survives a write/read round trip', async () => {
    expect(shape((await roundTrip(layout)).pages)).toEqual(shape(layout.pages));
  });
});

describe('pgsql-tw (master): sub-folder from book.json, Chinese titles, 824 pages', () => {
  let tree: SourceTree;
  let layout: ImportedLayout;
  beforeAll(async () => {
    tree = checkout('pgsql-tw-gitbook-docs', 'master');
    layout = await readGitSyncLayout(tree);
  });

  it('reads the docs from tw/ and imports all 824 SUMMARY pages without warnings', async () => {
    expect(layout).toMatchObject({ docsRoot: 'tw/', readmePath: 'tw/README.md', summaryPath: 'tw/SUMMARY.md', warnings: [] });
    expect(await expectEverySummaryLinkImported(tree, layout)).toBe(824);
    expect(flatten(layout.pages).filter((p) => p.sourcePath)).toHaveLength(824);
  });

  it('keeps Chinese titles and undoes \\_ in targets', () => {
    expect(layout.pages[0]).toMatchObject({ title: '簡介', slug: '簡介', path: '簡介', sourcePath: 'tw/README.md' });
    expect(byPath(layout, 'preface/01_intro-whatis')).toMatchObject({
      title: '1. 什麼是 PostgreSQL？',
      sourcePath: 'tw/preface/01_intro-whatis.md',
    });
    expect(byPath(layout, 'the-sql-language/sql-syntax/4.3.-han-shu-hu-jiao')?.title).toBe('4.3. 函數呼叫');
    expect(byPath(layout, 'the-sql-language/data-types/pg_lsn-type')?.title).toBe('8.20. pg_lsn 型別');
    expect(byPath(layout, 'tutorial/advanced-features/views')?.title).toBe('3.2. 檢視表（View）');
  });

  it('survives a write/read round trip', async () => {
    expect(shape((await roundTrip(layout)).pages)).toEqual(shape(layout.pages));
  });
});
