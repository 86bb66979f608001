import { JSONDocument, markdownToDocument } from '@quire/content/markdown';
import { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { renderDocument } from './render-document';
import { buildSiteIndex } from './site-index';
import { SiteUrls } from './site-urls';

const page = (id: string, path: string, file: string, extra: Partial<RevisionPageNode> = {}): RevisionPageNode => ({ id, kind: 'sheet', title: id, slug: path, path, file, children: [], ...extra });
const pages = [page('home', 'readme', 'README.md'), page('guide', 'guides/setup', 'guides/setup.md', { description: 'How to set up' }), page('api', 'reference/api', 'reference/api.md')];
const files: RevisionFileNode[] = [{ id: 'img1', name: 'a b.png', file: '.gitbook/assets/a b.png', blob: 'f'.repeat(40), contentType: 'image/png', size: 2048, width: 640, height: 480 }];
const index = buildSiteIndex('rev1', pages, files);
const urls = new SiteUrls('/sites/acme/space1', 'home');

const render = (doc: JSONDocument, from = pages[1]) => renderDocument(doc, { index, urls, pageFile: from.file, pagePath: from.path }).body.value;
const md = (markdown: string, from = pages[1]) => render(markdownToDocument(markdown).document, from);
const text = (t: string) => ({ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: t, marks: [] }] });
const para = (...nodes: any[]) => ({ object: 'block' as const, type: 'paragraph', data: {}, nodes });
const link = (ref: unknown, label = 'label') => ({ object: 'inline' as const, type: 'link' as const, data: { ref }, nodes: [text(label)], isVoid: false });
const doc = (...nodes: any[]): JSONDocument => ({ object: 'document', data: {}, nodes });

describe('renderDocument', () => {
  it('never emits a link that runs script, whatever the document holds', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'vbscript:x', 'data:text/html,<script>alert(1)</script>', '\u0001javascript:alert(1)']) {
      const out = render(doc(para(link({ kind: 'url', url }))));
      expect(out).not.toContain('href');
      expect(out).toContain('<span class="broken-link"');
    }
    expect(render(doc(para(link({ kind: 'url', url: 'https://example.com/?a=1&b="2"' }))))).toContain('<a href="https://example.com/?a=1&amp;b=&quot;2&quot;" class="external" rel="noopener noreferrer">label</a>');
    expect(render(doc(para(link({ kind: 'url', url: 'ftp://ftp.gnu.org/gnu/' }))))).toContain('href="ftp://ftp.gnu.org/gnu/"');
  });

  it('escapes text, attributes and block data', () => {
    const out = render(
      doc(
        para(text('<img src=x onerror=alert(1)>')),
        { object: 'block', type: 'hint', data: { style: '"><script>x</script>' }, nodes: [para(text('hi'))] },
        { object: 'block', type: 'code', data: { syntax: '"><script>', title: '<b>t</b>' }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text('</code><script>')] }] },
        { object: 'block', type: 'tabs', data: {}, nodes: [{ object: 'block', type: 'tabs-item', data: { title: '<i>x</i>' }, nodes: [para(text('t'))] }] },
        { object: 'block', type: 'math', data: { formula: '</div><script>' } },
        { object: 'block', type: 'embed', data: { url: 'javascript:alert(1)' } },
      ),
    );
    expect(out).not.toMatch(/<script|<img|<b>|<i>/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('<div class="hint hint-info" role="note">');
    expect(out).toContain('<code><span class="line">&lt;/code&gt;&lt;script&gt;</span>');
    expect(out).toContain('<span class="code-title">&lt;b&gt;t&lt;/b&gt;</span>');
    expect(out).toContain('<p class="embed-invalid">javascript:alert(1)</p>');
  });

  it('resolves markdown links, content-refs and images to the site URLs and files', () => {
    const out = md(
      [
        '[home](../README.md) [api](../reference/api.md#list-things) [self](#top) [folder](../reference/api) [url-relative](../setup)',
        '',
        '![diagram](<../.gitbook/assets/a b.png>) ![encoded](../.gitbook/assets/a%20b.png)',
        '',
        '{% content-ref url="../reference/api.md" %}',
        '[api.md](../reference/api.md)',
        '{% endcontent-ref %}',
        '',
        '{% file src="../.gitbook/assets/a b.png" %}',
        'The picture',
        '{% endfile %}',
      ].join('\n'),
    );
    expect(out).toContain('<a href="/sites/acme/space1">home</a>');
    expect(out).toContain('<a href="/sites/acme/space1/reference/api#list-things">api</a>');
    expect(out).toContain('<a href="#top">self</a>');
    expect(out).toContain('<a href="/sites/acme/space1/reference/api">folder</a>');
    // Written for the web page (`guides/setup` read as a folder), as some repositories do.
    expect(out).toContain('<a href="/sites/acme/space1/guides/setup">url-relative</a>');
    const src = '/sites/acme/space1/~/files/img1/a%20b.png?v=ffffffffffff';
    expect(out).toContain(`<img src="${src}" alt="diagram" width="640" height="480" loading="lazy" decoding="async">`);
    expect(out).toContain(`<img src="${src}" alt="encoded" width="640" height="480"`);
    expect(out).toContain('<a class="card content-ref" href="/sites/acme/space1/reference/api"><span class="card-title">api</span></a>');
    expect(out).toContain(`<a class="card file-card" href="${src}" download="a b.png"><span class="card-title">a b.png</span><span class="card-meta">a b.png · 2.0 KB</span></a>`);
  });

  it('resolves refs by id (documents written through the API) and shows what resolves to nothing as text', () => {
    const out = render(
      doc(
        para(link({ kind: 'page', page: 'api', anchor: 'x' }, 'by id'), link({ kind: 'page', page: 'gone' }, 'gone'), link({ kind: 'anchor', anchor: 'sec' }, 'anchor')),
        { object: 'block', type: 'images', data: {}, nodes: [{ object: 'block', type: 'image', data: { ref: { kind: 'file', file: 'img1' }, alt: 'by id' }, isVoid: true }] },
        { object: 'block', type: 'content-ref', data: { ref: { kind: 'page', page: 'guide' } }, isVoid: true },
      ),
    );
    expect(out).toContain('<a href="/sites/acme/space1/reference/api#x">by id</a>');
    expect(out).toContain('<span class="broken-link" title="This link leads nowhere in this space">gone</span>');
    expect(out).toContain('<a href="#sec">anchor</a>');
    expect(out).toContain('alt="by id" width="640" height="480"');
    expect(out).toContain('<span class="card-title">guide</span><span class="card-meta">How to set up</span>');
  });

  it('links a files column\'s files, by id (as an API read resolves them) and by path (as imported)', () => {
    const table = (value: unknown) => ({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: { view: { type: 'grid', columns: ['c1'] }, records: { r1: { orderIndex: 'a0', values: { c1: value } } }, definition: { c1: { id: 'c1', title: 'F', type: 'files' } } },
      fragments: [],
    });
    const fileLink = '<a href="/sites/acme/space1/~/files/img1/a%20b.png?v=ffffffffffff">a b.png</a>';

    expect(render(doc(table(['img1'])))).toContain(fileLink);
    expect(render(doc(table(['../.gitbook/assets/a b.png'])))).toContain(fileLink);
  });

  it('gives every heading a unique anchor and reports the outline', () => {
    const { body, outline } = renderDocument(markdownToDocument('## Setup\n\n## Setup\n\n{% stepper %}\n{% step %}\n### Setup\nx\n{% endstep %}\n{% endstepper %}\n').document, { index, urls });
    expect(outline.map((o) => o.id)).toEqual(['setup', 'setup-1', 'setup-2']);
    expect(body.value).toContain('<h4 id="setup-2">Setup<a class="anchor" href="#setup-2"');
  });

  it('shows the children of block types it does not know', () => {
    expect(render(doc({ object: 'block', type: 'future-block', data: {}, nodes: [para(text('inside'))] }))).toBe('<p>inside</p>');
  });

  describe('GitBook HTML constructs', () => {
    it('renders a cards table as linked cards with their cover and dark cover', () => {
      const out = md(
        '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image"></th><th data-hidden data-card-cover-dark data-type="image"></th></tr></thead><tbody><tr><td><h4>Set up</h4></td><td><a href="setup.md">setup.md</a></td><td><a href="https://cdn.example.com/light.png">light.png</a></td><td><a href="https://cdn.example.com/dark.png">dark.png</a></td></tr></tbody></table>\n',
      );

      expect(out).toContain('<div class="cards"><a class="card table-card" href="/sites/acme/space1/guides/setup">');
      expect(out).toContain('<picture><source srcset="https://cdn.example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://cdn.example.com/light.png" alt="" class="card-cover"');
      expect(out).toContain('Set up');
      expect(out).not.toContain('&lt;');
    });

    it('renders typed table cells as what they mean', () => {
      const out = md(
        '<table><thead><tr><th>Name</th><th data-type="checkbox">Done</th><th><select><option value="o1" label="Beta" color="blue"></option></select></th></tr></thead><tbody><tr><td>a</td><td>true</td><td><span data-option="o1">Beta</span></td></tr></tbody></table>\n',
      );

      expect(out).toContain('<td><span class="checkbox checked" aria-label="Yes">✓</span></td>');
      expect(out).toContain('<span class="tag">Beta</span>');
    });

    it('switches images with a dark variant by colour scheme', () => {
      const out = md('<figure><picture><source srcset="https://x.y/dark.png" media="(prefers-color-scheme: dark)"><img src="https://x.y/light.png" alt="Alt"></picture><figcaption></figcaption></figure>\n\nIcon <picture><source srcset="https://x.y/d.svg" media="(prefers-color-scheme: dark)"><img src="https://x.y/l.svg" alt="i"></picture>.\n');

      expect(out).toContain('<figure class="image"><picture><source srcset="https://x.y/dark.png" media="(prefers-color-scheme: dark)"><img src="https://x.y/light.png" alt="Alt"');
      expect(out).toContain('Icon <picture><source srcset="https://x.y/d.svg" media="(prefers-color-scheme: dark)"><img src="https://x.y/l.svg" alt="i"');
    });

    it('never puts a dark source that runs script in the page', () => {
      const image = { object: 'block', type: 'image', data: { ref: { kind: 'url', url: 'https://x.y/a.png' }, refDark: { kind: 'url', url: 'javascript:alert(1)' } }, fragments: [] };
      const out = render(doc({ object: 'block', type: 'images', data: {}, nodes: [image] }));

      expect(out).not.toContain('javascript');
      expect(out).not.toContain('<picture>');
    });

    it('renders buttons, icons, expressions, colours and aligned text', () => {
      const out = md(
        [
          '<p align="center">Centred <mark style="color:red;background-color:yellow;">hot</mark></p>',
          '<h2 align="center">Title</h2>',
          '<a href="setup.md" class="button primary">Start</a><button type="button" class="button secondary" data-action="ask" data-query="How &#x26; why?">Ask</button>',
          'An <i class="fa-gear">:gear:</i> and <code class="expression">space.vars.v</code>.',
        ].join('\n\n'),
      );

      expect(out).toContain('<p class="align-center">Centred <mark class="colored color-red bg-yellow">hot</mark></p>');
      expect(out).toMatch(/<h3 id="title" class="align-center">Title/);
      expect(out).toContain('<a href="/sites/acme/space1/guides/setup" class="button button-primary">Start</a>');
      expect(out).toContain('<a href="/sites/acme/space1/~/search?q=How%20%26%20why%3F" class="button button-secondary">Ask</a>');
      expect(out).toContain('<span class="icon" role="img" aria-label="gear"></span>');
      expect(out).toContain('<code class="expression">space.vars.v</code>');
    });

    it('escapes what the new blocks carry', () => {
      const button = { object: 'inline', type: 'button', data: { label: '<b>x</b>', kind: 'primary" onclick="x', action: { action: 'search', query: '"><script>' } }, isVoid: true };
      const icon = { object: 'inline', type: 'icon', data: { icon: '"><script>' }, isVoid: true };
      const colored = { object: 'text', leaves: [{ object: 'leaf', text: 't', marks: [{ object: 'mark', type: 'color', data: { text: '"><script>', background: 'red' } }] }] };
      const update = { object: 'block', type: 'update', data: { date: '<script>' }, nodes: [para(text('u'))] };
      const api = { object: 'block', type: 'swagger', data: { ref: { kind: 'url', url: 'javascript:alert(1)' }, path: '</code><script>', method: '<b>' } };
      const out = render(doc(para(text(''), button, text(''), icon, colored), update, api));

      expect(out).not.toContain('<script>');
      expect(out).not.toContain('<b>');
      expect(out).not.toContain('javascript:');
      expect(out).toContain('<mark class="colored bg-red">t</mark>');
    });

    it('renders updates with their dates and API operations with their method and path', () => {
      const out = md('{% updates format="full" %}\n{% update date="2024-01-15" %}\nShipped.\n{% endupdate %}\n{% endupdates %}\n\n{% openapi src="https://x.y/openapi.json" path="/pet" method="post" %}\n[https://x.y/openapi.json](https://x.y/openapi.json)\n{% endopenapi %}\n');

      expect(out).toContain('<section class="update"><time class="update-date" datetime="2024-01-15">2024-01-15</time>');
      expect(out).toContain('<span class="api-method">POST</span> <code>/pet</code>');
    });
  });
});

