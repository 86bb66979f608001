/**
 * GitBook's own renderer (github.com/GitbookIO/gitbook) serving a site of Quire: every page of
 * a real GitBook repository imported into Quire renders with its text and the site's
 * navigation, the search box finds words of those pages, and a private space never shows.
 *
 * Not part of `npm test` (the renderer is a 2.4 GB install): `npm run test:renderer`, after
 * building the renderer with scripts/renderer/build-renderer.sh (docs/gitbook-renderer.md).
 *   GITBOOK_RENDERER_DIR    the built checkout (default /tmp/gitbook-renderer)
 *   QUIRE_RENDERER_API_URL  the Quire URL the renderer was built with (default http://127.0.0.1:3916);
 *                           this check serves Quire there
 *   RENDERER_PORT           where the renderer listens (default 3100, its GITBOOK_URL's port)
 *   RENDERER_DOCS_REPO      a GitBook docs repository, as a git URL or path (default
 *                           https://github.com/GitbookIO/public-docs.git)
 *   RENDERER_DOCS_SPACES    its folders imported as the site's spaces (default guides,developers);
 *                           RENDERER_PRIVATE_SPACE the folder imported as a private space (policies)
 */
import { ChildProcess, execFileSync, spawn } from 'child_process';
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { until } from '../chaos/chaos-support';
import { launchTestBrowser, TestBrowser } from '../support/browser';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

const RENDERER_DIR = process.env.GITBOOK_RENDERER_DIR ?? '/tmp/gitbook-renderer';
const API_URL = new URL(process.env.QUIRE_RENDERER_API_URL ?? 'http://127.0.0.1:3916');
const RENDERER_PORT = Number(process.env.RENDERER_PORT ?? 3100);
const DOCS_REPO = process.env.RENDERER_DOCS_REPO ?? 'https://github.com/GitbookIO/public-docs.git';
const SITE_FOLDERS = (process.env.RENDERER_DOCS_SPACES ?? 'guides,developers').split(',').filter(Boolean);
const PRIVATE_FOLDER = process.env.RENDERER_PRIVATE_SPACE ?? 'policies';
const renderer = `http://localhost:${RENDERER_PORT}`;
/**
 * The organization's custom hostname, where its sites are published: the renderer refuses site
 * URLs whose host has a port, so the site cannot live under Quire's own `host:port`.
 */
const DOCS_HOST = 'docs.acme.test';

interface SitePage {
  siteSpacePath: string | null;
  spaceTitle: string;
  title: string;
  path: string;
  /** The site space's first page, whose URL is the site space's root. */
  first: boolean;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
/** The visible text of an HTML page, roughly: enough to look for a title or a word. */
const textOf = (html: string) => decodeEntities(html.replace(/<script[\s\S]*?<\/script>/gi, ' ').replace(/<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
const flatten = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);

/**
 * The files of `folders` at the HEAD of the docs repository, as one snapshot. A mirror may lack
 * its largest blobs (big images): those files are left out, and the import warns about them.
 */
function docsSnapshot(folders: string[]): Record<string, Uint8Array> {
  // A local repository is read in place; a URL is cloned (its HEAD only) first.
  const scratch = mkdtempSync(join(tmpdir(), 'quire-renderer-source-'));
  const source = existsSync(DOCS_REPO) ? DOCS_REPO : join(scratch, 'docs.git');
  if (source !== DOCS_REPO) execFileSync('git', ['clone', '--quiet', '--bare', '--depth', '1', DOCS_REPO, source]);
  const gitIn = (args: string[]) => execFileSync('git', ['-C', source, ...args], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  const files: Record<string, Uint8Array> = {};
  for (const line of gitIn(['ls-tree', '-r', '-z', 'HEAD', '--', ...folders]).toString().split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t');
    const [, type, oid] = meta.split(' ');
    if (type !== 'blob') continue;
    try {
      files[path] = gitIn(['cat-file', 'blob', oid]);
    } catch {
      // Absent from this copy of the repository.
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  return files;
}

describe('GitBook renderer serving a Quire site', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let gitRoot: string;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  let siteId: string;
  let siteSpaces: any[];
  let pages: SitePage[];
  let privateSpaceId: string;
  let privateTitles: string[];
  let next: ChildProcess;
  let nextLog = '';
  /** The renderer's address of a path of the site (its `/url/<host>/...` form). */
  const siteAddress = (path = '') => `${renderer}/url/${DOCS_HOST}/docs${path ? `/${path}` : ''}`;
  const pageAddress = (p: SitePage) => siteAddress([p.siteSpacePath, p.first ? '' : p.path].filter(Boolean).join('/'));

  async function importFolder(spaceId: string, folder: string) {
    const r = await q.http('POST', `/v1/spaces/${spaceId}/git/import`, {
      token: owner.token,
      body: { url: `${git.url}/public-docs.git`, ref: 'refs/heads/main', repoProjectDirectory: folder },
    });
    expect(r.status).toBe(204);
    const run = await until(`the import of ${folder}`, async () => (await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: owner.token })).body.items.find((i: any) => !['queued', 'running'].includes(i.status)), 300_000, 500);
    expect([folder, run.status, run.error ?? run.warnings]).toEqual([folder, 'completed', expect.anything()]);
  }

  beforeAll(async () => {
    if (!existsSync(join(RENDERER_DIR, 'packages/gitbook/.next/BUILD_ID'))) throw new Error(`No built renderer in ${RENDERER_DIR}: run scripts/renderer/build-renderer.sh first`);
    gitRoot = mkdtempSync(join(tmpdir(), 'quire-renderer-docs-'));
    await createRepoFromFiles(gitRoot, 'public-docs', docsSnapshot([...SITE_FOLDERS, PRIVATE_FOLDER]), { message: 'GitBook docs snapshot' });
    git = await startGitHttpServer({ root: gitRoot });

    const publicUrl = API_URL.origin;
    q = await startTestQuire({ port: Number(API_URL.port), publicUrl, appUrl: publicUrl, publishedUrl: `${publicUrl}/sites` });
    owner = await q.createUser('Docs Owner');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Acme', hostname: 'acme', customHostname: DOCS_HOST } })).body.id;
    const spaces: any[] = [];
    for (const folder of [...SITE_FOLDERS, PRIVATE_FOLDER]) {
      const space = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: folder[0].toUpperCase() + folder.slice(1) } })).body;
      await importFolder(space.id, folder);
      spaces.push(space);
    }
    privateSpaceId = spaces.pop().id;
    await q.http('PATCH', `/v1/spaces/${privateSpaceId}`, { token: owner.token, body: { visibility: 'private' } });
    privateTitles = flatten((await q.http('GET', `/v1/spaces/${privateSpaceId}/content`, { token: owner.token })).body.pages).map((p) => p.title);

    const site = (await owner.api.orgs.createSite(orgId, { title: 'GitBook Docs', spaces: spaces.map((s) => s.id) })).data;
    siteId = site.id;
    await owner.api.orgs.updateSiteById(orgId, siteId, { basename: 'docs' });
    await owner.api.orgs.publishSite(orgId, siteId);
    siteSpaces = (await owner.api.orgs.listSiteSpaces(orgId, siteId)).data.items;
    pages = [];
    for (const siteSpace of siteSpaces) {
      const content = (await q.http('GET', `/v1/spaces/${siteSpace.space.id}/content`, { token: owner.token })).body;
      const documents = flatten(content.pages).filter((page) => page.type === 'document' && !page.hidden);
      documents.forEach((page, i) => pages.push({ siteSpacePath: siteSpace.default ? null : siteSpace.path, spaceTitle: siteSpace.title, title: page.title, path: page.path, first: i === 0 }));
    }

    const app = join(RENDERER_DIR, 'packages/gitbook');
    // bun hoists Next.js to the workspace's root node_modules.
    next = spawn(process.execPath, [require.resolve('next/dist/bin/next', { paths: [app] }), 'start', '-p', String(RENDERER_PORT)], {
      cwd: app,
      env: { ...process.env, NODE_ENV: 'production', GITBOOK_URL: renderer, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    next.stdout!.on('data', (d) => (nextLog += d));
    next.stderr!.on('data', (d) => (nextLog += d));
    await until('the renderer to listen', async () => (await fetch(renderer).catch(() => undefined))?.status, 120_000, 500);
  }, 900_000);

  afterAll(async () => {
    next?.kill('SIGTERM');
    await q?.close();
    await git?.close();
    if (gitRoot) rmSync(gitRoot, { recursive: true, force: true });
  });

  it('renders every page of the imported repository with its text and the site navigation', async () => {
    expect(pages.length).toBeGreaterThan(20);
    // The navigation of every page shows its site space (the switcher) and the space's top pages.
    const check = async (p: SitePage): Promise<string | undefined> => {
      const res = await fetch(pageAddress(p)).catch((err) => err as Error);
      if (res instanceof Error) return `${pageAddress(p)}: ${res.message}`;
      const text = textOf(await res.text());
      const spaceTops = pages.filter((o) => o.siteSpacePath === p.siteSpacePath && !o.path.includes('/')).slice(0, 3);
      const problems = [
        res.status !== 200 && `status ${res.status}`,
        !text.includes(p.title.trim()) && `no title "${p.title}"`,
        ...spaceTops.filter((o) => !text.includes(o.title.trim())).map((o) => `no navigation entry "${o.title}"`),
        !text.includes(p.spaceTitle) && `no site space "${p.spaceTitle}"`,
        ...privateTitles.filter((t) => t.length > 12 && text.includes(t)).map((t) => `private page "${t}" shown`),
      ].filter(Boolean);
      return problems.length ? `${pageAddress(p)}: ${problems.join(', ')}` : undefined;
    };
    const failed: SitePage[] = [];
    const queue = [...pages];
    const worker = async () => {
      for (let p = queue.shift(); p; p = queue.shift()) if (await check(p)) failed.push(p);
    };
    await Promise.all([worker(), worker()]);
    // On a loaded machine the renderer's own time limits can fail a page once: each failed page
    // gets one more try, alone, and must pass it.
    const failures: string[] = [];
    for (const p of failed) {
      const problem = await check(p);
      if (problem) failures.push(problem);
    }
    // The renderer's own errors say why a page failed (a block or a read it could not do).
    if (failures.length) console.log(nextLog.split('\n').filter((l) => /error|fail|\b[45]\d\d\b/i.test(l) && !/prerender cache/.test(l)).slice(-200).join('\n'));
    expect(failures).toEqual([]);
  }, 1_800_000);

  it("finds words of the pages through the renderer's search box", async () => {
    // A word of a page's body that is in no page title, so only Quire's site search can find it.
    const siteSpace = siteSpaces[siteSpaces.length - 1];
    const titles = pages.map((p) => p.title.toLowerCase()).join(' ');
    const hits = async (word: string) => (await q.http('POST', `/v1/orgs/${orgId}/sites/${siteId}/search`, { token: owner.token, body: { query: word, scope: { mode: 'all' } } })).body.items;
    let word: string | undefined;
    let expected: string | undefined;
    for (const candidate of ['authentication', 'webhook', 'pagination', 'configuration', 'installation', 'permissions']) {
      if (titles.includes(candidate)) continue;
      const found = await hits(candidate);
      if (found.length) {
        word = candidate;
        expected = found[0].pages[0].title;
        break;
      }
    }
    expect(word).toBeDefined();
    const browser: TestBrowser = await launchTestBrowser();
    try {
      const page = await browser.context.newPage();
      const start = pages.find((p) => p.siteSpacePath === (siteSpace.default ? null : siteSpace.path))!;
      await page.goto(`${pageAddress(start)}?q=${encodeURIComponent(word!)}`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
      await page.getByRole('link', { name: new RegExp(expected!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') }).first().waitFor({ timeout: 60_000 });
    } finally {
      await browser.close();
    }
  }, 300_000);

  it('never shows a private space, nor a space that is not in the site', async () => {
    for (const address of [siteAddress(privateSpaceId), siteAddress(`${privateSpaceId}/README`), `${renderer}/url/${DOCS_HOST}/${privateSpaceId}`]) {
      const res = await fetch(address, { redirect: 'manual' });
      const text = textOf(await res.text());
      expect([address, privateTitles.filter((t) => t.length > 12 && text.includes(t))]).toEqual([address, []]);
    }
    const word = privateTitles.find((t) => t.length > 12)!;
    const found = await q.http('POST', `/v1/orgs/${orgId}/sites/${siteId}/search`, { token: owner.token, body: { query: word, scope: { mode: 'all' } } });
    expect(JSON.stringify(found.body)).not.toContain(privateSpaceId);
  }, 300_000);
});
