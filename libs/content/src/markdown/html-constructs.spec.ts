import type { DocumentBlock, DocumentInline, DocumentText } from './document.types';
import { extractSections } from './extract-sections';
import { markdownToDocument } from './markdown-to-document';
import { assertValidDocument, gitbookSchema } from './testing/document-schema';
import { roundTrip, withoutKeys } from './testing/round-trip';

/**
 * The HTML GitBook's Git Sync writes for blocks markdown cannot hold, in GitBook's own form:
 * each reads as its block or inline (never as tags in the text), matches the document schema,
 * and format=markdown writes it back unchanged.
 */
const GITBOOK_HTML: Array<[string, string, string]> = [
  [
    'cards table with target, cover and dark cover columns',
    'table',
    '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover</th><th data-hidden data-card-cover-dark data-type="image">Dark</th></tr></thead><tbody><tr><td><h4><i class="fa-puzzle-piece">:puzzle-piece:</i></h4></td><td><a href="integrations/quickstart.md">quickstart.md</a></td><td><a href=".gitbook/assets/a.png">a.png</a></td><td><a href=".gitbook/assets/b.png">b.png</a></td></tr></tbody></table>\n',
  ],
  [
    'large cards with a select column and mentions',
    'table',
    '<table data-card-size="large" data-card-wrap="false" data-view="cards"><thead><tr><th><select><option value="a1" label="CREATE" color="blue"></option></select></th><th></th></tr></thead><tbody><tr><td><span data-option="a1">CREATE</span></td><td><a data-mention href="getting-started/quickstart.md">quickstart.md</a></td></tr></tbody></table>\n',
  ],
  [
    'typed columns, widths and rich cells',
    'table',
    '<table data-full-width="false"><thead><tr><th width="312.5">Block</th><th data-type="checkbox">Before?</th><th data-type="number">N</th><th data-type="rating" data-max="5">R</th><th data-type="files">F</th></tr></thead><tbody><tr><td><p>Unordered <strong>list</strong></p><p>two<br>lines</p></td><td>true</td><td>3</td><td>4</td><td><a href="a.pdf">a.pdf</a></td></tr></tbody></table>\n',
  ],
  ['hidden header and a list in a cell', 'table', '<table data-header-hidden><thead><tr><th>A</th></tr></thead><tbody><tr><td><ul><li>x</li><li><code>y</code></li></ul></td></tr></tbody></table>\n'],
  ['table without search', 'table', '<table data-search="false"><thead><tr><th>Old</th><th>New</th></tr></thead><tbody><tr><td>a</td><td><a href="https://x.y/">x</a></td></tr></tbody></table>\n'],
  [
    'figure with a dark-mode picture and a caption',
    'images',
    '<figure><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="Alt"></picture><figcaption><p>Caption</p></figcaption></figure>\n',
  ],
  ['aligned image with a width', 'images', '<div align="left"><figure><img src="a.png" alt="" width="375"><figcaption></figcaption></figure></div>\n'],
  ['image not full width', 'images', '<div data-full-width="false"><figure><img src="a.png" alt=""><figcaption></figcaption></figure></div>\n'],
  ['drawing', 'drawing', '<img src=".gitbook/assets/file.drawing.svg" alt="" class="gitbook-drawing">\n'],
  ['inline picture with a dark source', 'paragraph', 'Click <picture><source srcset="d.svg" media="(prefers-color-scheme: dark)"><img src="l.svg" alt="icon"></picture> here.\n'],
  ['inline image of line size', 'paragraph', 'An <img src="a.png" alt="x" data-size="line"> inline.\n'],
  ['centred paragraph', 'paragraph', '<p align="center">Choose a <strong>path</strong>.</p>\n'],
  ['right-aligned paragraph', 'paragraph', '<p align="right">Signed.</p>\n'],
  ['centred heading', 'heading-2', '<h2 align="center">What do you want?</h2>\n'],
  [
    'link buttons',
    'paragraph',
    '<a href="https://app.gitbook.com" class="button primary">Create a token</a><a href="https://x.y" class="button secondary" data-icon="github">GitHub</a>\n',
  ],
  [
    'search and ask buttons',
    'paragraph',
    '<button type="button" class="button primary" data-action="search" data-query="Inline buttons" data-icon="magnifying-glass">Search</button> or <button type="button" class="button secondary" data-action="ask">Ask</button>\n',
  ],
  ['icon', 'paragraph', 'An icon <i class="fa-gear">:gear:</i> here.\n'],
  ['expression', 'paragraph', 'Version <code class="expression">space.vars.version</code> now.\n'],
  ['text colour', 'heading-3', '### Name<mark style="color:red;">\\*</mark>\n'],
  ['text and background colours', 'paragraph', 'A <mark style="color:orange;background-color:purple;">**bold** colour</mark> and <mark style="background-color:orange;">bg</mark>.\n'],
  ['colour in aligned text', 'paragraph', '<p align="center"><mark style="color:blue;">Centred</mark></p>\n'],
  ['keyboard, superscript and subscript', 'paragraph', 'Press <kbd>Ctrl</kbd> and x<sup>2</sup> H<sub>2</sub>O.\n'],
  ['expandable', 'expandable', '<details>\n\n<summary>More</summary>\n\nBody with <kbd>K</kbd>.\n\n</details>\n'],
  [
    'updates holding an expandable',
    'updates',
    '{% updates format="full" %}\n{% update date="2024-01-15" tags="beta" %}\n## Version 2\n\nDark <kbd>mode</kbd>.\n{% endupdate %}\n\n{% update date="2024-01-01" %}\n<details>\n\n<summary>Fixed</summary>\n\n* Bugs.\n\n</details>\n\n{% endupdate %}\n{% endupdates %}\n',
  ],
  ['conditional content', 'if', '{% if visitor.claims.unsigned.bucket.IF_BLOCK === true %}\nOnly **you**.\n{% endif %}\n'],
  [
    'OpenAPI operation from a spec URL',
    'swagger',
    '{% openapi src="https://petstore3.swagger.io/api/v3/openapi.json" path="/pet" method="post" %}\n[https://petstore3.swagger.io/api/v3/openapi.json](https://petstore3.swagger.io/api/v3/openapi.json)\n{% endopenapi %}\n',
  ],
  ['OpenAPI operation from an uploaded spec', 'openapi-operation', '{% openapi-operation spec="gitbook" path="/" method="get" %}\nOpenAPI gitbook\n{% endopenapi-operation %}\n'],
  ['OpenAPI schemas', 'openapi-schemas', '{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}\nThe Pet object\n{% endopenapi-schemas %}\n'],
  ['stepper', 'stepper', '{% stepper %}\n{% step %}\n## First\n\nInstall.\n{% endstep %}\n\n{% step %}\n## Second\n\nRun.\n{% endstep %}\n{% endstepper %}\n'],
  ['columns', 'columns', '{% columns %}\n{% column %}\n### Before\n\nOld.\n{% endcolumn %}\n\n{% column %}\n### After\n\nNew.\n{% endcolumn %}\n{% endcolumns %}\n'],
  ['annotations (footnotes)', 'paragraph', "A **bold**[^1] word and a longer one[^2].\n\n[^1]: Note.\n\n[^2]: Two paragraphs.\n\n    `{ code }` too.\n"],
  ['math block', 'math', '$$\nE = mc^2\n$$\n'],
  ['inline math', 'paragraph', 'Energy $$E = mc^2$$ here.\n'],
];

/** An API method block as GitBook's Git Sync wrote it (before GitBook retired the block in 2024). */
const API_METHOD = [
  '{% swagger method="get" path="/sites/templates" baseUrl="https://api.example.com/" expanded="false" summary="List Templates" %}',
  '{% swagger-description %}',
  'Get all available **templates**.',
  '{% endswagger-description %}',
  '',
  '{% swagger-parameter in="query" name="lang" type="string" %}',
  'Retrieve templates for specific languages.',
  '{% endswagger-parameter %}',
  '',
  '{% swagger-parameter in="path" name="site" type="String" required="true" %}',
  'The site\'s `id`',
  '{% endswagger-parameter %}',
  '',
  '{% swagger-parameter in="header" name="auth-key" required="true" %}',
  '{% endswagger-parameter %}',
  '',
  '{% swagger-response status="200: OK" description="array of objects" %}',
  '```json',
  '[{ "template_name": "Auto Repair" }]',
  '```',
  '{% endswagger-response %}',
  '',
  '{% swagger-response status="404: Not Found" description="" %}',
  'No such site.',
  '{% endswagger-response %}',
  '{% endswagger %}',
  '',
].join('\n');

const PARAMETER_COLUMNS = '<thead><tr><th>Name</th><th>Type</th><th>Description</th><th data-type="checkbox">Required</th></tr></thead>';

const API_METHOD_AS_BLOCKS = [
  '## List Templates',
  '',
  '`GET` `https://api.example.com/sites/templates`',
  '',
  'Get all available **templates**.',
  '',
  '### Path Parameters',
  '',
  `<table>${PARAMETER_COLUMNS}<tbody><tr><td>site</td><td>String</td><td>The site's <code>id</code></td><td>true</td></tr></tbody></table>`,
  '',
  '### Query Parameters',
  '',
  `<table>${PARAMETER_COLUMNS}<tbody><tr><td>lang</td><td>string</td><td>Retrieve templates for specific languages.</td><td>false</td></tr></tbody></table>`,
  '',
  '### Headers',
  '',
  `<table>${PARAMETER_COLUMNS}<tbody><tr><td>auth-key</td><td></td><td></td><td>true</td></tr></tbody></table>`,
  '',
  '{% tabs %}',
  '{% tab title="200: OK array of objects" %}',
  '```json',
  '[{ "template_name": "Auto Repair" }]',
  '```',
  '{% endtab %}',
  '',
  '{% tab title="404: Not Found" %}',
  'No such site.',
  '{% endtab %}',
  '{% endtabs %}',
  '',
].join('\n');

/** GitBook's other spellings of the same constructs: one conversion gives the canonical form. */
const EQUIVALENT: Array<[string, string, string]> = [
  ['footnotes are numbered in order', 'One[^note].\n\n[^note]: Named.\n', 'One[^1].\n\n[^1]: Named.\n'],
  ['an update outside updates', '{% update date="2024-01-01" %}\nStray.\n{% endupdate %}\n', '{% updates format="full" %}\n{% update date="2024-01-01" %}\nStray.\n{% endupdate %}\n{% endupdates %}\n'],
  ['HTML mention in a paragraph', 'See <a data-mention href="page.md">page.md</a>.\n', 'See [page.md](page.md "mention").\n'],
  ['HTML hint', '<div data-gb-custom-block data-tag="hint" data-style="success" class="hint hint-success"><p>Done.</p></div>\n', '{% hint style="success" %}\nDone.\n{% endhint %}\n'],
  ['underline, which GitBook has no mark for', 'An <u>underlined</u> word.\n', 'An underlined word.\n'],
  ['a colour GitBook does not have is dropped, its text kept', 'Odd <mark style="color:#ff0000;">hex</mark> colour.\n', 'Odd hex colour.\n'],
  ['an unknown element is unwrapped', 'Text <span class="x">kept</span>.\n', 'Text kept.\n'],
  ['a placeholder that is no HTML element stays text', 'Use <your-token> here.\n', 'Use \\<your-token> here.\n'],
  [
    'the older {% swagger src %} spelling of an OpenAPI operation',
    '{% swagger src="https://petstore.swagger.io/v2/swagger.json" path="/pet" method="post" %}\n[https://petstore.swagger.io/v2/swagger.json](https://petstore.swagger.io/v2/swagger.json)\n{% endswagger %}\n',
    '{% openapi src="https://petstore.swagger.io/v2/swagger.json" path="/pet" method="post" %}\n[https://petstore.swagger.io/v2/swagger.json](https://petstore.swagger.io/v2/swagger.json)\n{% endopenapi %}\n',
  ],
  ['an API method block (retired by GitBook) as the standard blocks GitBook turned it into', API_METHOD, API_METHOD_AS_BLOCKS],
  [
    'an API method block with a path only and no parts',
    '{% swagger method="delete" path="/v1/items/:id" baseUrl="" summary="" %}\n{% endswagger %}\n',
    '`DELETE` `/v1/items/:id`\n',
  ],
  [
    'indented cards table (as in GitBook\'s own docs)',
    '<table data-view="cards">\n    <thead>\n        <tr>\n            <th>Title</th>\n            <th data-card-target data-type="content-ref">Target</th>\n        </tr>\n    </thead>\n    <tbody>\n        <tr>\n            <td>Getting Started Guide</td>\n            <td><a href="getting-started/quickstart.md">Quick Start</a></td>\n        </tr>\n    </tbody>\n</table>\n',
    '<table data-view="cards"><thead><tr><th>Title</th><th data-card-target data-type="content-ref">Target</th></tr></thead><tbody><tr><td>Getting Started Guide</td><td><a href="getting-started/quickstart.md">quickstart.md</a></td></tr></tbody></table>\n',
  ],
];

type Node = DocumentBlock | DocumentInline | DocumentText;

function textOf(nodes: readonly Node[]): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
      return textOf(node.nodes ?? []) + (node.fragments ?? []).map((f) => textOf(f.nodes)).join('');
    })
    .join('');
}

describe('GitBook HTML constructs', () => {
  it.each(GITBOOK_HTML)('%s: read as its block, valid, written back unchanged', (_name, type, markdown) => {
    const result = roundTrip(markdown);

    expect(result.parsed.document.nodes.map((node) => node.type)).toContain(type);
    expect(textOf(result.parsed.document.nodes)).not.toMatch(/<\/?(?:table|tr|td|th|figure|img|picture|source|p|h\d|a|button|i|code|kbd|sup|sub|div|details)[\s>]/);
    assertValidDocument(result.parsed.document);
    expect(result.markdown).toBe(markdown);
    expect(withoutKeys(result.reparsed.document)).toEqual(withoutKeys(result.parsed.document));
  });

  it.each(EQUIVALENT)('%s', (_name, markdown, canonical) => {
    const result = roundTrip(markdown);

    assertValidDocument(result.parsed.document);
    expect(result.markdown).toBe(canonical);
    expect(withoutKeys(result.reparsed.document)).toEqual(withoutKeys(result.parsed.document));
  });

  it('reads a cards table as GitBook\'s cards view', () => {
    const [table] = markdownToDocument(GITBOOK_HTML[0][2]).document.nodes;

    expect(table.data.view).toEqual({
      type: 'cards',
      columns: ['c1'],
      cardSize: 'medium',
      targetDefinition: 'c2',
      coverDefinition: 'c3',
      coverDefinitionDark: 'c4',
    });
    expect(table.data.records).toEqual({
      r1: {
        orderIndex: 'a0',
        values: {
          c1: 'r1c1',
          c2: { kind: 'url', url: 'integrations/quickstart.md' },
          c3: { ref: { kind: 'url', url: '.gitbook/assets/a.png' } },
          c4: { ref: { kind: 'url', url: '.gitbook/assets/b.png' } },
        },
      },
    });
    expect(table.fragments?.[0].nodes[0]).toMatchObject({ type: 'heading-3', nodes: [{ object: 'text' }, { type: 'icon', data: { icon: 'puzzle-piece' } }, { object: 'text' }] });
  });

  it('reads typed cells as values of their column type', () => {
    const [table] = markdownToDocument(GITBOOK_HTML[2][2]).document.nodes;

    expect(table.data).toMatchObject({
      fullWidth: false,
      view: { type: 'grid', columns: ['c1', 'c2', 'c3', 'c4', 'c5'], hideHeader: false, columnWidths: { c1: 312.5 } },
      records: { r1: { values: { c1: 'r1c1', c2: true, c3: 3, c4: 4, c5: ['a.pdf'] } } },
    });
    expect(table.data.definition).toMatchObject({ c2: { type: 'checkbox' }, c4: { type: 'rating', max: 5 }, c5: { type: 'files' } });
  });

  it('gives an image its dark-mode variant', () => {
    const [images] = markdownToDocument(GITBOOK_HTML[5][2]).document.nodes;

    expect((images.nodes?.[0] as DocumentBlock).data).toEqual({ ref: { kind: 'url', url: 'light.png' }, refDark: { kind: 'url', url: 'dark.png' }, alt: 'Alt' });
  });

  it('reads buttons, icons and expressions as GitBook inlines', () => {
    const nodes = (markdown: string) => (markdownToDocument(markdown).document.nodes[0].nodes ?? []).filter((n) => n.object === 'inline');

    expect(nodes(GITBOOK_HTML[14][2]).map((n) => n.data)).toEqual([
      { label: 'Create a token', kind: 'primary', ref: { kind: 'url', url: 'https://app.gitbook.com' } },
      { label: 'GitHub', kind: 'secondary', icon: 'github', ref: { kind: 'url', url: 'https://x.y' } },
    ]);
    expect(nodes(GITBOOK_HTML[15][2]).map((n) => n.data)).toEqual([
      { label: 'Search', kind: 'primary', icon: 'magnifying-glass', action: { action: 'search', query: 'Inline buttons' } },
      { label: 'Ask', kind: 'secondary', action: { action: 'ask' } },
    ]);
    expect(nodes(GITBOOK_HTML[16][2]).map((n) => [n.type, n.data])).toEqual([['icon', { icon: 'gear' }]]);
    expect(nodes(GITBOOK_HTML[17][2]).map((n) => [n.type, n.data])).toEqual([['expression', { expression: 'space.vars.version' }]]);
  });

  it('reads <mark style> as GitBook\'s colour mark', () => {
    const [paragraph] = markdownToDocument('A <mark style="color:orange;background-color:purple;">**bold** colour</mark>.\n').document.nodes;

    expect((paragraph.nodes?.[0] as DocumentText).leaves).toEqual([
      { object: 'leaf', text: 'A ', marks: [] },
      { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }, { object: 'mark', type: 'color', data: { text: 'orange', background: 'purple' } }] },
      { object: 'leaf', text: ' colour', marks: [{ object: 'mark', type: 'color', data: { text: 'orange', background: 'purple' } }] },
      { object: 'leaf', text: '.', marks: [] },
    ]);
  });

  it('reads a footnote as an annotation of the word before it', () => {
    const [paragraph] = markdownToDocument('A **bold**[^1] word.\n\n[^1]: Note.\n').document.nodes;

    expect(paragraph.nodes?.[1]).toMatchObject({
      object: 'inline',
      type: 'annotation',
      data: {},
      nodes: [{ object: 'text', leaves: [{ text: 'bold', marks: [{ type: 'bold' }] }] }],
      fragments: [{ fragment: 'annotation-body', type: 'annotation-body', nodes: [{ type: 'paragraph' }] }],
      isVoid: false,
    });
  });

  it('reads an API method block as a heading, its endpoint, parameter tables and response tabs', () => {
    const nodes = markdownToDocument(API_METHOD).document.nodes;

    expect(nodes.map((node) => node.type)).toEqual(['heading-2', 'paragraph', 'paragraph', 'heading-3', 'table', 'heading-3', 'table', 'heading-3', 'table', 'tabs']);
    expect(textOf(nodes)).not.toMatch(/\{%|swagger/);
    const [path, , header] = nodes.filter((node) => node.type === 'table');
    expect(path.data.definition).toMatchObject({ c1: { title: 'Name', type: 'text' }, c4: { title: 'Required', type: 'checkbox' } });
    expect(path.data.records).toEqual({ r1: { orderIndex: 'a0', values: { c1: 'r1c1', c2: 'r1c2', c3: 'r1c3', c4: true } } });
    expect(header.data.records).toEqual({ r1: { orderIndex: 'a0', values: { c1: 'r1c1', c4: true } } });
    expect(nodes[9].nodes?.map((tab) => (tab as DocumentBlock).data.title)).toEqual(['200: OK array of objects', '404: Not Found']);
  });

  it('indexes an API method block\'s text for search, not its markup', () => {
    const sections = extractSections(markdownToDocument(API_METHOD).document);

    expect(sections.map((section) => section.title)).toEqual(['List Templates', 'Path Parameters', 'Query Parameters', 'Headers']);
    expect(sections[0].text).toContain('GET https://api.example.com/sites/templates');
    expect(sections[2].text).toContain('Retrieve templates for specific languages.');
    expect(sections[3].text).toContain('Auto Repair');
    expect(sections.map((section) => section.text).join('\n')).not.toMatch(/\{%|<t[dr]|swagger-/);
  });

  it('unwraps <u> and unknown HTML because GitBook\'s format has no underline mark and no HTML block', () => {
    const variants = (name: string) => ((gitbookSchema(name)?.oneOf ?? []) as Array<{ $ref: string }>).map((variant) => variant.$ref.split('/').pop());

    // If @gitbook/api ever adds either, <u> and unknown HTML should read as it.
    expect(variants('DocumentTextMark')).toEqual([
      'DocumentMarkBold',
      'DocumentMarkItalic',
      'DocumentMarkCode',
      'DocumentMarkKeyboard',
      'DocumentMarkStrikethrough',
      'DocumentMarkColor',
      'DocumentMarkSuperscript',
      'DocumentMarkSubscript',
    ]);
    const blockTypes = variants('DocumentBlock').flatMap((name) => ((gitbookSchema(name!)?.properties as { type: { enum: string[] } }).type.enum));
    expect(blockTypes).toEqual(expect.arrayContaining(['paragraph', 'embed', 'integration', 'table']));
    expect(blockTypes.filter((type) => /html|markup|raw-|custom/i.test(type))).toEqual([]);
    // The embed block embeds a URL, not markup.
    expect(Object.keys((gitbookSchema('DocumentBlockEmbed')?.properties as { data: { properties: object } }).data.properties)).toEqual(['url', 'fullWidth']);
  });

  it('keeps HTML inside code as text', () => {
    const doc = markdownToDocument('```html\n<table><tr><td>x</td></tr></table>\n```\n\nInline `<kbd>` code.\n').document;

    expect(doc.nodes.map((n) => n.type)).toEqual(['code', 'paragraph']);
    expect(textOf(doc.nodes)).toBe('<table><tr><td>x</td></tr></table>Inline <kbd> code.');
  });
});
