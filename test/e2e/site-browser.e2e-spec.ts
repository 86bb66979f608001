import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH, launchTestBrowser, TestBrowser } from '../support/browser';
import { cloneBundle, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

const FIXTURES = join(__dirname, '../../../shared/fixtures');

/**
 * The published site as a reader sees it, in headless Chromium: a real GitBook repository
 * (noislabs, 22 pages with groups, emoji, hints, figures) imported and made public.
 */
describe('published site in a browser (e2e: Chromium via playwright-core)', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let browser: TestBrowser;
  let page: Page;
  let siteUrl: string;
  /** What the browser reported as broken: script errors, CSP violations, failed loads. */
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run does)`);
    root = mkdtempSync(join(tmpdir(), 'quire-site-browser-'));
    git = await startGitHttpServer({ root });
    [q, browser] = await Promise.all([startTestQuire(), launchTestBrowser()]);
    const owner = await q.createUser('Nois');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Nois', hostname: 'nois' } })).body.id;
    const space = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Nois Docs' } })).body;
    await cloneBundle(join(FIXTURES, 'noislabs-gitbook-docs.bundle'), root, 'nois');
    expect((await q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: owner.token, body: { url: `${git.url}/nois.git`, ref: 'refs/heads/main' } })).status).toBe(204);
    for (const deadline = Date.now() + 30_000; ; ) {
      const runs = (await q.http('GET', `/v1/spaces/${space.id}/git/imports`, { token: owner.token })).body.items;
      if (runs.some((r: any) => r.status === 'completed')) break;
      if (runs.some((r: any) => r.status === 'failed') || Date.now() > deadline) throw new Error(`import: ${JSON.stringify(runs)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const published = (await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, body: { visibility: 'public' } })).body.urls.published;
    // urls.published names the configured host; the test server listens elsewhere, same paths.
    siteUrl = q.url + new URL(published).pathname;
    page = await browser.context.newPage();
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    // Pages of this fixture also show images hosted by GitBook, out of reach here: only the site's own requests count.
    const own = (url: string) => url.startsWith(q.url);
    page.on('console', (msg) => msg.type() === 'error' && own(msg.location().url || q.url) && !/ERR_NAME_NOT_RESOLVED/.test(msg.text()) && problems.push(`console: ${msg.text()}`));
    page.on('requestfailed', (req) => own(req.url()) && problems.push(`failed: ${req.url()}`));
    page.on('response', (res) => own(res.url()) && res.status() >= 400 && problems.push(`${res.status()}: ${res.url()}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await q?.close();
    await git?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('reads like a docs site: sidebar navigation, images, search that leads to a page', async () => {
    await page.goto(siteUrl);
    await expect(page.title()).resolves.toBe('👋 Welcome to Nois Network | Nois Docs');
    await expect(page.locator('article h1').innerText()).resolves.toContain('Welcome to Nois Network');
    const sidebar = page.locator('nav.sidebar-nav');
    await expect(sidebar.locator('.nav-group-title').allInnerTexts()).resolves.toEqual(['OVERVIEW', 'USE CASES', '❓ FAQ']);
    await expect(sidebar.locator('a[aria-current=page]').innerText()).resolves.toContain('Welcome to Nois Network');
    // Nested pages stay folded until their parent is opened.
    await expect(sidebar.getByRole('link', { name: 'JS', exact: false }).isVisible()).resolves.toBe(false);

    // Through the sidebar to another page: the URL is the clean published one, images load.
    await sidebar.getByRole('link', { name: '🎲 Drand' }).click();
    await page.waitForURL(`${siteUrl}/overview/drand`);
    await expect(page.locator('article h1').innerText()).resolves.toContain('Drand');
    await expect(sidebar.locator('a[aria-current=page]').innerText()).resolves.toContain('Drand');
    const figure = page.locator('figure.image', { hasText: 'League of Entropy' });
    await figure.scrollIntoViewIfNeeded();
    // Functions run in the page (the test's TypeScript has no DOM types).
    await page.waitForFunction(`[...document.querySelectorAll('figure.image img')].every((img) => img.complete)`);
    const size = await figure.locator('img').evaluate((img: any) => ({ natural: img.naturalWidth as number, shown: img.getBoundingClientRect().width as number }));
    expect(size.natural).toBeGreaterThan(0);
    expect(size.shown).toBeGreaterThan(50);

    // Opening a folded section shows its children.
    await sidebar.getByRole('link', { name: '🛠 For DAPP Developers' }).click();
    await page.waitForURL(`${siteUrl}/use-cases/for-dapp-developers`);
    await expect(sidebar.getByRole('link', { name: '📃 Contract implementation' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('.hint.hint-danger').first().isVisible()).resolves.toBe(true);

    // Search as you type, then follow a result.
    await page.keyboard.press('/');
    await page.keyboard.type('faucet');
    const results = page.locator('.search-results a');
    await results.first().waitFor({ state: 'visible', timeout: 10_000 });
    const titles = await page.locator('.search-results .hit-title').allInnerTexts();
    expect(titles.some((t) => /faucet/i.test(t))).toBe(true);
    const shot = join(tmpdir(), `quire-site-search-${process.pid}.png`);
    await page.screenshot({ path: shot });
    const target = results.filter({ hasText: 'Using the faucet' }).first();
    await target.click();
    await page.waitForURL(/\/networks-and-contracts\/using-the-faucet/);
    await expect(page.locator('article h1').innerText()).resolves.toContain('Using the faucet');
    await expect(page.locator('.search-results').isHidden()).resolves.toBe(true);

    // Without the script, the form goes to the results page. Filling the box also starts the
    // search as you type: its answer is awaited first, or the navigation would abort it (a
    // request failure of the browser's making, seen on a loaded host).
    const typed = page.waitForResponse((res) => res.url().includes('/~/search.json?query=drand'));
    await page.fill('form.search input', 'drand');
    await typed;
    await page.press('form.search input', 'Enter');
    await page.waitForURL(/\/~\/search\?q=drand/);
    await expect(page.locator('article h1').innerText()).resolves.toBe('Results for “drand”');
    await expect(page.locator('.search-page .hit').count()).resolves.toBeGreaterThan(0);

    await page.goto(`${siteUrl}/overview/drand`);
    const pageShot = join(tmpdir(), `quire-site-page-${process.pid}.png`);
    await page.screenshot({ path: pageShot, fullPage: false });
    console.log(`screenshots: ${shot} ${pageShot}`);
    expect(problems).toEqual([]);
  }, 30_000);
});
