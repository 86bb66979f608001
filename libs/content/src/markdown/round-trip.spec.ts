import { assertValidDocument } from './testing/document-schema';
import { RandomDocuments } from './testing/random-documents';
import { roundTrip, withoutKeys } from './testing/round-trip';
import { documentToMarkdown } from './document-to-markdown';
import { markdownToDocument } from './markdown-to-document';

/**
 * Canonical markdown of every construct: documentToMarkdown writes exactly this, and reading
 * it gives a valid document that writes back to the same text.
 */
const CANONICAL: Array<[string, string]> = [
  ['front matter and title', '---\ndescription: A page\nicon: book-open\nhidden: true\n---\n\n# The title\n\nBody.\n'],
  ['headings', '## Second\n\n### Third\n'],
  ['paragraphs', 'First paragraph.\n\nSecond paragraph.\n'],
  ['hard line breaks', 'line one\\\nline two\n'],
  ['leading space kept as a character reference', '&#x20;elgafar-1 => nois relay\n'],
  ['marks', 'Some **bold**, *italic*, `code`, ~~gone~~, ***both*** and <kbd>Ctrl</kbd> x<sup>2</sup> H<sub>2</sub>O.\n'],
  ['marks that delimiters cannot express', 'a<strong> spaced </strong>b and foo<em>"quoted"</em>bar\n'],
  ['escaped markdown characters', '\\*not emphasis\\* \\_x\\_ \\[not a link\\] \\<tag> a\\|b \\~\\~ \\$\\$ \\&amp; C:\\\\path\n'],
  ['line-start characters', '\\# not a heading\\\n\\- not a list\\\n1\\. not ordered\\\n\\> not a quote\n'],
  ['links', 'See [the page](../other/page.md), [a file](../.gitbook/assets/a.pdf) and [the web](https://example.com/?a=1&b=2).\n'],
  ['link targets with spaces and parentheses', '[asset](<../.gitbook/assets/image (1).png>) and [fn](f(x).md) and [odd](<a)b.md>)\n'],
  ['mention', 'Read [page.md](../page.md "mention").\n'],
  ['inline image', 'Icon ![alt](icon.png) inline.\n'],
  ['bulleted list', '* one\n* two\n  * nested\n* three\n'],
  ['ordered list', '1. first\n2. second\n   1. nested\n'],
  ['ordered list with start', '3. third\n4. fourth\n'],
  ['adjacent lists keep apart', '* a\n\n- b\n'],
  ['task list', '* [ ] open\n* [x] done\n'],
  ['loose list item with two paragraphs', '* first\n\n  second\n* next\n'],
  ['code block', '```js\nconst x = 1;\n\nconsole.log(x);\n```\n'],
  ['code block without syntax', '```\nplain\n```\n'],
  ['code block containing fences', '````md\n```js\nx\n```\n````\n'],
  ['code with highlighted lines', '<pre class="language-shell"><code class="lang-shell"><strong>export A=1\n</strong>echo &#x3C;$A> &#x26;&#x26; done\n</code></pre>\n'],
  ['code block options', '{% code title="server.js" overflow="wrap" lineNumbers="true" %}\n```javascript\nlisten(80);\n```\n{% endcode %}\n'],
  ['blockquote', '> A quote\n>\n> > nested\n'],
  ['hint', '{% hint style="warning" %}\nCareful with **this**.\n{% endhint %}\n'],
  ['hint styles', '{% hint style="success" %}\nDone.\n{% endhint %}\n\n{% hint style="danger" %}\nStop.\n{% endhint %}\n'],
  ['tabs', '{% tabs %}\n{% tab title="First" %}\nOne.\n{% endtab %}\n\n{% tab title="Second" %}\n```bash\nnpm i\n```\n{% endtab %}\n{% endtabs %}\n'],
  ['hint inside a tab', '{% tabs %}\n{% tab title="A" %}\n{% hint style="info" %}\nNested.\n{% endhint %}\n{% endtab %}\n{% endtabs %}\n'],
  ['expandable', '<details>\n\n<summary>More <strong>details</strong></summary>\n\nHidden body.\n\n</details>\n'],
  ['expanded expandable', '<details open>\n\n<summary>Open</summary>\n\n* a\n* b\n\n</details>\n'],
  ['table', '| Name | Value |\n| --- | --: |\n| a | `1` |\n| b \\| c | <p>two</p><p>paragraphs</p> |\n'],
  ['table alignments and empty cells', '| L | C | R |\n| --- | :-: | --: |\n| 1 |  | 3 |\n'],
  ['lists in table cells', '| Key | Value |\n| --- | --- |\n| p2p | <p>Peers</p><ul><li>a@1.2:26656</li><li>`b`</li></ul> |\n| n | <ol><li>one</li></ol> |\n'],
  ['table with line break and link', '| Key | Note |\n| --- | --- |\n| k | first<br>[second](b.md) |\n'],
  ['image', '![Alt text](../.gitbook/assets/image.png)\n'],
  ['several images', '![a](a.png)\n![b](b.png)\n'],
  ['figure with caption', '<figure><img src="../.gitbook/assets/image (1).png" alt="diagram"><figcaption><p>The <strong>caption</strong></p></figcaption></figure>\n'],
  ['figure with size', '<figure><img src="a.png" alt="" width="50%"><figcaption></figcaption></figure>\n'],
  ['aligned images', '<div align="center"><figure><img src="a.png" alt=""><figcaption></figcaption></figure></div>\n'],
  ['file', '{% file src="../.gitbook/assets/report.pdf" %}\n'],
  ['embed', '{% embed url="https://www.youtube.com/watch?v=xyz" %}\n'],
  ['content-ref', '{% content-ref url="other/page.md" %}\n[page.md](other/page.md)\n{% endcontent-ref %}\n'],
  ['divider', 'Above.\n\n***\n\nBelow.\n'],
  ['math block', '$$\nf(x) = x^2\n$$\n'],
  ['inline math', 'Inline $$a+b$$ here.\n'],
  ['stepper', '{% stepper %}\n{% step %}\nStep one.\n{% endstep %}\n\n{% step %}\nStep two.\n{% endstep %}\n{% endstepper %}\n'],
  ['columns', '{% columns %}\n{% column width="50%" %}\nLeft.\n{% endcolumn %}\n\n{% column width="50%" %}\nRight.\n{% endcolumn %}\n{% endcolumns %}\n'],
  ['unknown liquid tag kept as text', '{% include ".gitbook/includes/x.md" %}\n'],
  ['embed with caption', '{% embed url="https://example.com/v" %}\nThe *caption*\n{% endembed %}\n'],
  ['heading with a custom anchor', '## Install it <a href="#custom-anchor" id="custom-anchor"></a>\n\nText.\n'],
  ['unknown HTML kept as text', '\\<div align="center">\\\n\\</div>\n'],
];

describe('markdown round trip: canonical form of each construct', () => {
  it.each(CANONICAL)('%s', (_name, markdown) => {
    const result = roundTrip(markdown);

    assertValidDocument(result.parsed.document);
    expect(result.markdown).toBe(markdown);
    expect(result.reparsed.document).toEqual(result.parsed.document);
    expect(result.reparsed.title).toBe(result.parsed.title);
  });
});

/** Inputs GitBook or people write differently from our canonical form: one pass makes them canonical. */
const NON_CANONICAL: Array<[string, string]> = [
  ['setext heading', 'Title\n=====\n\nSub\n---\n'],
  ['deep headings', '#### Four\n\n##### Five\n'],
  ['soft breaks', 'one\ntwo\nthree\n'],
  ['underscore emphasis', '_it_ and __bold__\n'],
  ['indented code', '    indented code\n    more\n'],
  ['tilde fence', '~~~python\nprint()\n~~~\n'],
  ['reference links', 'See [x][ref].\n\n[ref]: https://example.com "Title"\n'],
  ['autolink', 'Visit <https://example.com>.\n'],
  ['html inline marks', 'A <b>bold</b> and <i>italic</i> and <code>x</code>, <del>old</del><br>next\n'],
  ['html image', 'An <img src="a.png" alt="x"> inline image.\n'],
  ['html link', 'A <a href="page.md">link</a>.\n'],
  ['img alone', '<img src="a.png" alt="x">\n'],
  ['centred paragraph of images', '<p align="center">\n  <img src="logo.png" width="200">\n</p>\n'],
  ['figure without caption', '<figure><img src="a.png" alt=""><figcaption></figcaption></figure>\n'],
  ['single-quoted liquid attributes', "{% hint style='info' %}\nNote.\n{% endhint %}\n"],
  ['unknown hint style', '{% hint style="tip" %}\nTip.\n{% endhint %}\n'],
  ['tags on one line', '{% content-ref url="a.md" %}[a.md](a.md){% endcontent-ref %}\n\n{% hint style="info" %}Short.{% endhint %}\n'],
  ['details in one HTML block', '<details><summary>Sum</summary>Body text</details>\n'],
  ['details without blank lines', '<details>\n<summary>Sum</summary>\n\nBody\n\n</details>\n'],
  ['code inside a hint is moved after it', '{% hint style="info" %}\nBefore.\n```js\nx\n```\nAfter.\n{% endhint %}\n'],
  ['table inside a tab is wrapped in a hint', '{% tabs %}\n{% tab title="A" %}\n| a | b |\n|---|---|\n| 1 | 2 |\n{% endtab %}\n{% endtabs %}\n'],
  ['image inside a list item becomes inline', '* ![alt](a.png)\n'],
  ['math inside a blockquote becomes inline', '> $$\n> x^2\n> $$\n'],
  ['unclosed hint stays text', '{% hint style="info" %}\nNever closed.\n'],
  ['stray end tag stays text', 'Text.\n\n{% endtabs %}\n'],
  ['tab outside tabs', '{% tab title="Alone" %}\nContent.\n{% endtab %}\n'],
  ['file with caption content', '{% file src="a.pdf" %}\nThe caption.\n{% endfile %}\n'],
  ['embed without url', '{% embed %}\n'],
  ['mixed task list', '* [ ] task\n* plain\n'],
  ['ordered task markers', '1. [ ] not a task\n'],
  ['html comment', '<!-- hidden -->\n\nText.\n'],
  ['raw html table', '<table>\n<tr><td>cell</td></tr>\n</table>\n'],
  ['front matter that is not YAML', '---\ndescription: [unclosed\n---\n\nBody.\n'],
  ['empty summary', '<details>\n\n<summary></summary>\n\n</details>\n'],
  ['details right before endhint', '{% hint style="info" %}\n<details>\n<summary>Sum</summary>\n\nBody\n\n</details>\n{% endhint %}\n'],
  ['details right before endtab', '{% tabs %}\n{% tab title="A" %}\n<details>\n<summary>Sum</summary>\n\nBody\n\n</details>\n{% endtab %}\n{% endtabs %}\n'],
  ['details nested in details', '<details>\n\n<summary>Outer</summary>\n\n<details>\n\n<summary>Inner</summary>\n\nBody.\n\n</details>\n\n</details>\n'],
  ['embed with caption on one line', '{% embed url="https://example.com/v" %}caption{% endembed %}\n'],
  ['hint holding only code', '{% hint style="warning" %}\n```js\nx\n```\n{% endhint %}\n'],
  ['hint holding only tabs', '{% hint style="danger" %}\n{% tabs %}\n{% tab title="A" %}\nOne.\n{% endtab %}\n{% endtabs %}\n{% endhint %}\n'],
  ['gitbook exported page', '---\ndescription: >-\n  Folded\n  text\n---\n\n# 🌉 For operators\n\n{% hint style="info" %}\nUse it.\\\nOr not\n{% endhint %}\n\n\\\nInstall from [here](https://x.y/)\n\n#### &#x20;elgafar-1 => nois\n'],
];

describe('markdown round trip: other inputs become stable after one conversion', () => {
  it.each(NON_CANONICAL)('%s', (_name, markdown) => {
    const result = roundTrip(markdown);

    assertValidDocument(result.parsed.document);
    expect(result.reparsed.document).toEqual(result.parsed.document);
    expect(result.markdownAgain).toBe(result.markdown);
  });
});

describe('markdown round trip: what used to be lost', () => {
  const plain = (markdown: string) => JSON.stringify(markdownToDocument(markdown).document);

  it('details before an end tag: the container, the summary and the body stay', () => {
    for (const markdown of [
      '{% hint style="info" %}\n<details>\n<summary>Sum</summary>\n\nBody\n\n</details>\n{% endhint %}\n',
      '{% tabs %}\n{% tab title="A" %}\n<details>\n<summary>Sum</summary>\n\nBody\n\n</details>\n{% endtab %}\n{% endtabs %}\n',
    ]) {
      const json = plain(markdown);
      expect(json).not.toContain('{%');
      expect(json).not.toContain('<details>');
      expect(json).toContain('"text":"Sum"');
      expect(json).toContain('"text":"Body"');
      expect(json).toMatch(/"type":"(hint|tabs)"/);
      expect(json).toContain('"type":"expandable"');
    }
  });

  it('nested details keep both summaries', () => {
    const json = plain('<details>\n\n<summary>Outer</summary>\n\n<details>\n\n<summary>Inner</summary>\n\nBody.\n\n</details>\n\n</details>\n');
    expect(json).toContain('"text":"Outer"');
    expect(json).toContain('"text":"Inner"');
  });

  it('an embed keeps its caption', () => {
    const { document } = markdownToDocument('{% embed url="https://example.com/v" %}caption{% endembed %}\n');
    expect(withoutKeys(document).nodes).toEqual([{ object: 'block', type: 'embed', data: { url: 'https://example.com/v', caption: 'caption' }, isVoid: true }]);
  });

  it('a hint holding only code or tabs is still there', () => {
    expect(markdownToDocument('{% hint style="warning" %}\n```js\nx\n```\n{% endhint %}\n').document.nodes.map((n) => [n.type, n.data.style])).toEqual([
      ['hint', 'warning'],
      ['code', undefined],
    ]);
    expect(markdownToDocument('{% hint style="danger" %}\n{% tabs %}\n{% tab title="A" %}\nOne.\n{% endtab %}\n{% endtabs %}\n{% endhint %}\n').document.nodes.map((n) => n.type)).toEqual(['hint', 'tabs']);
  });

  it('a custom heading anchor (meta.id) is written as GitBook exports it and read back', () => {
    const heading = { object: 'block', type: 'heading-2', data: {}, meta: { id: 'custom-anchor' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Flamingo heading', marks: [] }] }] };
    const markdown = documentToMarkdown({ object: 'document', data: {}, nodes: [heading] } as any);
    expect(markdown).toBe('## Flamingo heading <a href="#custom-anchor" id="custom-anchor"></a>\n');
    const back = markdownToDocument(markdown).document.nodes[0];
    expect(back.meta).toEqual({ id: 'custom-anchor' });
    expect(back.nodes).toEqual([expect.objectContaining({ object: 'text', leaves: [expect.objectContaining({ text: 'Flamingo heading' })] })]);
    // Generated anchors are not written out.
    const plainHeading = { ...heading, meta: { id: 'flamingo-heading' } };
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [plainHeading, { ...plainHeading, meta: { id: 'flamingo-heading-1' } }] } as any)).toBe('## Flamingo heading\n\n## Flamingo heading\n');
  });
});

describe('document round trip: generated documents', () => {
  it('keeps arbitrary marked text, links, images and formulas (2,000 seeded paragraphs)', () => {
    const random = new RandomDocuments(20240611);
    for (let i = 0; i < 2000; i++) {
      const doc = random.inlineDocument();
      const markdown = documentToMarkdown(doc);
      const back = markdownToDocument(markdown).document;
      if (JSON.stringify(withoutKeys(back)) !== JSON.stringify(withoutKeys(doc))) {
        expect({ case: i, markdown, nodes: withoutKeys(back).nodes }).toEqual({ case: i, markdown, nodes: withoutKeys(doc).nodes });
      }
    }
  });

  it('keeps nested blocks once fitted to the schema (600 seeded documents)', () => {
    const random = new RandomDocuments(7);
    for (let i = 0; i < 600; i++) {
      const doc = random.blockDocument();
      assertValidDocument(doc, `generated document ${i}`);
      const markdown = documentToMarkdown(doc);
      const back = markdownToDocument(markdown).document;
      if (JSON.stringify(withoutKeys(back)) !== JSON.stringify(withoutKeys(doc))) {
        expect({ case: i, markdown, nodes: withoutKeys(back).nodes }).toEqual({ case: i, markdown, nodes: withoutKeys(doc).nodes });
      }
    }
  });
});
