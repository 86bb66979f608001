import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

/** A 3x2 PNG: the site must give images their dimensions. */
const PNG_3x2 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==', 'base64');

const FILES: Record<string, string | Uint8Array> = {
  'README.md': '# Welcome\n\nStart with the [install guide](guides/install.md#requirements) or [Linux](guides/linux.md).\n',
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '',
    '## Guides',
    '',
    '* [Install](guides/install.md)',
    '  * [On Linux](guides/linux.md)',
    '* [Hostile <script>alert("nav")</script>](guides/hostile.md)',
    '* [Project site](https://example.com/project)',
    '',
    '## Reference',
    '',
    '* [API](reference/api.md)',
    '',
  ].join('\n'),
  'guides/install.md': [
    '---',
    'description: Everything needed to install it',
    '---',
    '# Install',
    '',
    'Read **this** and *that*, run `make`, press <kbd>Enter</kbd>, ~~not this~~.',
    '',
    '## Requirements',
    '',
    '{% hint style="warning" %}',
    'Back up your data first.',
    '{% endhint %}',
    '',
    '{% tabs %}',
    '{% tab title="macOS" %}',
    'Use brew.',
    '{% endtab %}',
    '{% tab title="Windows" %}',
    'Use winget.',
    '{% endtab %}',
    '{% endtabs %}',
    '',
    '<details>',
    '<summary>Troubleshooting</summary>',
    'Restart the machine.',
    '</details>',
    '',
    '{% code title="install.sh" lineNumbers="true" %}',
    '```bash',
    'if [ 1 < 2 ]; then echo "ok & done"; fi',
    '```',
    '{% endcode %}',
    '',
    '| Platform | Supported |',
    '| --- | :-: |',
    '| Linux | **yes** |',
    '',
    '![Architecture diagram](../.gitbook/assets/diagram.png)',
    '',
    '{% embed url="https://www.youtube.com/watch?v=abc" %}',
    '',
    '{% content-ref url="linux.md" %}',
    '[linux.md](linux.md)',
    '{% endcontent-ref %}',
    '',
    '$$',
    'E = mc^2',
    '$$',
    '',
    '- [x] Download',
    '- [ ] Configure',
    '',
    'Back to [the start](../README.md) or the [API](../reference/api.md#endpoints), or [nowhere](missing.md).',
    '',
  ].join('\n'),
  'guides/linux.md': '# On Linux\n\nRun the package manager.\n',
  'guides/hostile.md': [
    '---',
    'description: "<img src=x onerror=alert(1)>"',
    '---',
    '# Hostile <script>alert("title")</script>',
    '',
    '<script>alert("body")</script>',
    '',
    'A [bad link](javascript:alert(1)) and [another](JaVaScRiPt:alert(2)) and <img src=x onerror=alert(3)>.',
    '',
    '```html',
    '</code></pre><script>alert("code")</script>',
    '```',
    '',
    '{% hint style="info\\"><script>alert(4)</script>" %}',
    'Styled',
    '{% endhint %}',
    '',
  ].join('\n'),
  'reference/api.md': '# API\n\n## Endpoints\n\nThe endpoints.\n',
  '.gitbook/assets/diagram.png': PNG_3x2,
};

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe('published site (e2e: HTML over HTTP)', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;
  let publicSpace: any;
  let privateSpace: any;
  /** `urls.published` of the public space, as a path on the test server. */
  let sitePath: string;

  const pathOf = (url: string) => new URL(url).pathname;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(q.url + path, { headers, redirect: 'manual' });
  const page = async (path: string) => {
    const res = await get(path);
    return { status: res.status, headers: res.headers, body: await res.text() };
  };

  async function importFiles(spaceId: string, name: string) {
    await createRepoFromFiles(root, name, FILES);
    const r = await q.http('POST', `/v1/spaces/${spaceId}/git/import`, { token: owner.token, body: { url: `${git.url}/${name}.git`, ref: 'refs/heads/main' } });
    expect(r.status).toBe(204);
    for (const deadline = Date.now() + 60_000; ; ) {
      const runs = await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: owner.token });
      const done = runs.body.items.find((i: any) => !['queued', 'running'].includes(i.status));
      if (done) return expect(done.status).toBe('completed');
      if (Date.now() > deadline) throw new Error('import did not finish');
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const setVisibility = async (spaceId: string, visibility: string) => q.http('PATCH', `/v1/spaces/${spaceId}`, { token: owner.token, body: { visibility } });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-site-git-'));
    git = await startGitHttpServer({ root });
    q = await startTestQuire();
    owner = await q.createUser('Publisher');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Acme', hostname: 'acme-docs' } })).body.id;
    publicSpace = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Acme Handbook', emoji: '1f4d8' } })).body;
    privateSpace = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Internal' } })).body;
    await importFiles(publicSpace.id, 'handbook');
    await importFiles(privateSpace.id, 'internal');
    const updated = await setVisibility(publicSpace.id, 'public');
    expect(updated.status).toBe(200);
    publicSpace = updated.body;
    sitePath = pathOf(publicSpace.urls.published);
  }, 120_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('publishes with visibility public: the space shows its published and public URLs', async () => {
    // Through the official client: the Space still validates against GitBook's schema.
    const { data: shown } = await owner.api.spaces.getSpaceById(publicSpace.id);
    expect(q.violations).toEqual([]);
    expect(shown).toMatchObject({ visibility: 'public', urls: { published: publicSpace.urls.published } });
    expect(publicSpace).toMatchObject({ visibility: 'public', urls: { published: `${q.config.publishedUrl}/acme-docs/${publicSpace.id}`, public: publicSpace.urls.published } });
    expect(privateSpace.visibility).toBe('private');
    expect(privateSpace.urls.published).toBeUndefined();
  });

  it('serves the first page at the site root with the navigation tree', async () => {
    const res = await page(sitePath);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<title>Welcome | Acme Handbook</title>');
    expect(res.body).toContain('<h1>Welcome</h1>');
    const nav = /<nav class="sidebar-nav"[^]*?<\/nav>/.exec(res.body)![0];
    // Groups are titled sections, nested pages sit under their parent, the active page is marked.
    expect(nav).toMatch(/<h2 class="nav-group-title">Guides<\/h2>/);
    expect(nav).toMatch(/<h2 class="nav-group-title">Reference<\/h2>/);
    expect(nav).toContain(`<a href="${sitePath}" aria-current="page" class="active">Welcome</a>`);
    expect(nav).toMatch(new RegExp(`<details><summary><a href="${sitePath}/guides/install">Install</a></summary><ul><li><a href="${sitePath}/guides/install/linux">On Linux</a>`));
    expect(nav).toContain('<a class="external" href="https://example.com/project" rel="noopener noreferrer">Project site</a>');
    // Links between pages go to the site's clean URLs, anchors kept.
    expect(res.body).toContain(`<a href="${sitePath}/guides/install#requirements">install guide</a>`);
    expect(res.body).toContain(`<a href="${sitePath}/guides/install/linux">Linux</a>`);
    expect(res.body).toContain(`<link rel="canonical" href="${publicSpace.urls.published}">`);
  });

  it('renders GitBook blocks: headings with anchors, hint, tabs, expandable, code, table, image, embed, content-ref, math, tasks, marks', async () => {
    const res = await page(`${sitePath}/guides/install`);
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b).toContain('<h1>Install</h1>');
    expect(b).toContain('<p class="description">Everything needed to install it</p>');
    expect(b).toContain('<meta name="description" content="Everything needed to install it">');
    expect(b).toContain('<h3 id="requirements">Requirements<a class="anchor" href="#requirements"');
    expect(b).toContain('<strong>this</strong>');
    expect(b).toContain('<em>that</em>');
    expect(b).toContain('<code>make</code>');
    expect(b).toContain('<kbd>Enter</kbd>');
    expect(b).toContain('<s>not this</s>');
    expect(b).toMatch(/<div class="hint hint-warning" role="note">[^]*Back up your data first\.[^]*<\/div>/);
    expect(b).toMatch(/<label class="tab-label" for="tabs-1-0">macOS<\/label>[^]*<label class="tab-label" for="tabs-1-1">Windows<\/label>/);
    expect(b).toMatch(/<div class="tab-panel"><p>Use brew\.<\/p><\/div><div class="tab-panel"><p>Use winget\.<\/p><\/div>/);
    expect(b).toMatch(/<details class="expandable"><summary>Troubleshooting<\/summary><div class="expandable-body"><p>Restart the machine\.<\/p>/);
    expect(b).toContain('<figure class="code numbered"><figcaption><span class="code-title">install.sh</span>');
    expect(b).toContain('<code class="language-bash"><span class="line">if [ 1 &lt; 2 ]; then echo &quot;ok &amp; done&quot;; fi</span>');
    expect(b).toMatch(/<thead><tr><th>Platform<\/th><th class="align-center">Supported<\/th><\/tr><\/thead><tbody><tr><td><p>Linux<\/p><\/td><td class="align-center"><p><strong>yes<\/strong><\/p><\/td><\/tr>/);
    const img = /<img src="([^"]+)" alt="Architecture diagram" width="3" height="2" loading="lazy"/.exec(b);
    expect(img).not.toBeNull();
    expect(img![1]).toMatch(new RegExp(`^${sitePath}/~/files/[\\w-]+/diagram\\.png\\?v=[0-9a-f]{12}$`));
    expect(b).toContain('<a class="card embed" href="https://www.youtube.com/watch?v=abc" rel="noopener noreferrer"><span class="card-title">www.youtube.com</span>');
    expect(b).toContain(`<a class="card content-ref" href="${sitePath}/guides/install/linux"><span class="card-title">On Linux</span>`);
    expect(b).toContain('<div class="math" role="math"><code>E = mc^2</code></div>');
    expect(b).toMatch(/<ul class="tasks"><li class="task done"><input type="checkbox" disabled checked[^>]*><p>Download<\/p><\/li><li class="task"><input type="checkbox" disabled aria-label="To do"><p>Configure<\/p>/);
    expect(b).toContain(`<a href="${sitePath}">the start</a>`);
    expect(b).toContain(`<a href="${sitePath}/reference/api#endpoints">API</a>`);
    expect(b).toContain('<span class="broken-link" title="This link leads nowhere in this space">nowhere</span>');
    // Breadcrumbs, previous / next in reading order, and the active page open in the tree.
    expect(b).toContain('<nav class="breadcrumbs" aria-label="Breadcrumbs"><span>Guides</span></nav>');
    expect(b).toContain(`<a class="previous" rel="prev" href="${sitePath}"><small>Previous</small>Welcome</a>`);
    expect(b).toContain(`<a class="next" rel="next" href="${sitePath}/guides/install/linux"><small>Next</small>On Linux</a>`);
    expect(b).toContain(`<details open><summary><a href="${sitePath}/guides/install" aria-current="page" class="active">Install</a>`);
  });

  it('escapes everything content carries: no script, no event handler, no javascript: URL', async () => {
    const res = await page(`${sitePath}/guides/hostile`);
    expect(res.status).toBe(200);
    const b = res.body;
    const scripts = b.match(/<script\b/gi) ?? [];
    expect(scripts).toHaveLength(1); // the site's own, allowed by its hash in the CSP
    expect(b).not.toMatch(/<img[^>]+onerror/i);
    expect(b).not.toMatch(/href="\s*javascript:/i);
    expect(b).toContain('<h1>Hostile &lt;script&gt;alert(&quot;nav&quot;)&lt;/script&gt;</h1>');
    expect(b).toContain('<title>Hostile &lt;script&gt;alert(&quot;nav&quot;)&lt;/script&gt; | Acme Handbook</title>');
    // A <script> block is HTML GitBook does not keep: neither run nor shown.
    expect(b).not.toContain('alert(&quot;body&quot;)');
    expect(b).not.toContain('alert("body")');
    expect(b).toContain('&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(&quot;code&quot;)&lt;/script&gt;');
    // The markdown parser keeps `javascript:` links as text; documents from elsewhere are covered by render-document.spec.ts.
    expect(b).toContain('A [bad link](javascript:alert(1))');
    expect(b).toContain('content="&lt;img src=x onerror=alert(1)&gt;"');
    expect(b).toContain('<div class="hint hint-info" role="note">');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves space files at a stable URL with their type and cache validators', async () => {
    const b = (await page(`${sitePath}/guides/install`)).body;
    const src = /<img src="([^"]+)" alt="Architecture diagram"/.exec(b)![1].replace(/&amp;/g, '&');
    const res = await get(src);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_3x2)).toBe(true);
    const stable = src.split('?')[0];
    const again = await get(stable);
    expect(again.status).toBe(200);
    expect(again.headers.get('cache-control')).toBe('public, max-age=300');
    expect((await get(stable, { 'if-none-match': again.headers.get('etag')! })).status).toBe(304);
    expect((await get(`${sitePath}/~/files/nope/diagram.png`)).status).toBe(404);
  });

  it('answers 304 to a revalidation while the revision and settings are unchanged, then changes the ETag', async () => {
    const first = await get(`${sitePath}/guides/install/linux`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"${publicSpace.revision}-[0-9a-f]{12}"$`));
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const head = await fetch(q.url + `${sitePath}/guides/install/linux`, { method: 'HEAD' });
    expect([head.status, head.headers.get('etag')]).toEqual([200, etag]);
    const cached = await get(`${sitePath}/guides/install/linux`, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    await q.http('PATCH', `/v1/spaces/${publicSpace.id}`, { token: owner.token, body: { title: 'Acme Handbook 2' } });
    const renamed = await get(`${sitePath}/guides/install/linux`, { 'if-none-match': etag });
    expect(renamed.status).toBe(200);
    expect(await renamed.text()).toContain('Acme Handbook 2');
    await q.http('PATCH', `/v1/spaces/${publicSpace.id}`, { token: owner.token, body: { title: 'Acme Handbook' } });
  });

  it('answers 404 for unknown pages, private, unknown and deleted spaces, and another organization', async () => {
    const missing = await page(`${sitePath}/guides/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<h1>Page not found</h1>');
    expect(missing.body).toContain('class="sidebar-nav"');

    const hidden = await page(`${pathOf(q.config.publishedUrl)}/acme-docs/${privateSpace.id}`);
    const unknown = await page(`${pathOf(q.config.publishedUrl)}/acme-docs/nosuchspace`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toBe(unknown.body);
    expect(hidden.body).not.toContain('Internal');
    expect((await page(`${pathOf(q.config.publishedUrl)}/acme-docs/${privateSpace.id}/guides/install`)).status).toBe(404);
    expect((await get(`${pathOf(q.config.publishedUrl)}/acme-docs/${privateSpace.id}/~/search.json?query=install`)).status).toBe(404);
    expect((await get(`${pathOf(q.config.publishedUrl)}/acme-docs/${privateSpace.id}/~/files/x/y.png`)).status).toBe(404);
    expect((await page(`${pathOf(q.config.publishedUrl)}/other-org/${publicSpace.id}`)).status).toBe(404);

    // The organization id leads to the canonical URL with the hostname.
    const byId = await get(`${pathOf(q.config.publishedUrl)}/${orgId}/${publicSpace.id}/guides/install`);
    expect(byId.status).toBe(301);
    expect(byId.headers.get('location')).toBe(`${sitePath}/guides/install`);

    // A deleted space is gone from the web at once.
    const trash = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Trash' } })).body;
    const trashSite = pathOf((await setVisibility(trash.id, 'public')).body.urls.published);
    expect((await page(trashSite)).status).toBe(200);
    expect((await q.http('DELETE', `/v1/spaces/${trash.id}`, { token: owner.token })).status).toBe(205);
    expect((await page(trashSite)).status).toBe(404);
  });

  it('keeps unlisted spaces out of search engines and unpublishes private ones', async () => {
    expect((await setVisibility(publicSpace.id, 'unlisted')).body.visibility).toBe('unlisted');
    const unlisted = await page(sitePath);
    expect(unlisted.status).toBe(200);
    expect(unlisted.body).toContain('<meta name="robots" content="noindex">');
    expect(unlisted.headers.get('x-robots-tag')).toBe('noindex');

    expect((await setVisibility(publicSpace.id, 'private')).body.visibility).toBe('private');
    expect((await page(sitePath)).status).toBe(404);
    // Share links need QUIRE_SECRET_KEY, which this server has not (share-links.e2e-spec.ts has them).
    expect((await setVisibility(publicSpace.id, 'share-link')).status).toBe(422);
    expect((await setVisibility(publicSpace.id, 'in-collection')).status).toBe(400);
    expect((await setVisibility(publicSpace.id, 'public')).body.visibility).toBe('public');
    expect((await page(sitePath)).status).toBe(200);
  });

  it('searches without a token: results link to the site pages', async () => {
    let items: any[] = [];
    for (const deadline = Date.now() + 30_000; items.length === 0 && Date.now() < deadline; ) {
      const res = await get(`${sitePath}/~/search.json?query=winget`);
      expect(res.status).toBe(200);
      items = ((await res.json()) as { items: any[] }).items;
      if (items.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(items[0]).toMatchObject({ title: 'Install', path: 'guides/install', ancestors: ['Guides'] });
    expect(items[0].url).toBe(`${sitePath}/guides/install#requirements`);
    const results = await page(`${sitePath}/~/search?q=winget`);
    expect(results.status).toBe(200);
    expect(results.body).toContain('Results for “winget”');
    expect(results.body).toContain(`<a href="${sitePath}/guides/install#requirements"><span class="hit-title">Install</span>`);
    expect(results.body).toContain('value="winget"');
    const xss = await page(`${sitePath}/~/search?q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(xss.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(xss.body.match(/<script\b/gi)).toHaveLength(1);
  });

  it('shows only URLs that URL resolution resolves to the same page', async () => {
    const b = (await page(`${sitePath}/guides/install`)).body;
    const base = new URL(q.config.publishedUrl).origin;
    const hrefs = [...new Set([...b.matchAll(/href="([^"#]+)(?:#[^"]*)?"/g)].map((m) => m[1].replace(/&amp;/g, '&')))].filter((h) => h.startsWith(sitePath) && !h.includes('/~/'));
    expect(hrefs.length).toBeGreaterThan(4);
    for (const href of hrefs) {
      const resolved = await q.http('GET', `/v1/urls/content?url=${encodeURIComponent(base + href)}`, { token: owner.token });
      expect(resolved.status).toBe(200);
      expect(resolved.body.space.id).toBe(publicSpace.id);
      const shown = await page(href);
      expect(shown.status).toBe(200);
      const title = unescape(/<h1>(.*?)<\/h1>/.exec(shown.body)![1]);
      if (href === sitePath) expect(resolved.body.page).toBeUndefined();
      else expect(resolved.body.page.title).toBe(title);
    }
  });
});
