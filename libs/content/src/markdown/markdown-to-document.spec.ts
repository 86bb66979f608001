import type { DocumentBlock, DocumentInline, DocumentNode, JSONDocument } from './document.types';
import { markdownToDocument } from './markdown-to-document';
import { assertValidDocument } from './testing/document-schema';
import { withoutKeys } from './testing/round-trip';

function blocksOf(markdown: string): DocumentBlock[] {
  const { document } = markdownToDocument(markdown);
  assertValidDocument(document);
  return withoutKeys(document).nodes;
}

function only(markdown: string): DocumentBlock {
  const nodes = blocksOf(markdown);
  expect(nodes).toHaveLength(1);
  return nodes[0];
}

function text(value: string, ...marks: string[]) {
  return { object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] };
}

function firstInline(node: DocumentBlock): DocumentInline {
  return (node.nodes as DocumentNode[]).find((n): n is DocumentInline => n.object === 'inline')!;
}

describe('markdownToDocument', () => {
  it('with keys: false, gives the same document with every key left empty', () => {
    const markdown = '# Title\n\nIntro with **bold** and a [link](https://example.com).\n\n## Setup\n\n- one\n- two\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n';
    const keyed = markdownToDocument(markdown);
    const bare = markdownToDocument(markdown, { keys: false });
    const keys = (doc: JSONDocument) => [...JSON.stringify(doc).matchAll(/"key":"([^"]*)"/g)].map((m) => m[1]);
    expect(keys(keyed.document).length).toBeGreaterThan(5);
    expect(keys(keyed.document).every((k) => k.length === 6)).toBe(true);
    expect(keys(bare.document)).toEqual(keys(keyed.document).map(() => ''));
    const blanked = JSON.parse(JSON.stringify(keyed.document, (name, value) => (name === 'key' ? '' : value)));
    expect(bare.document).toEqual(blanked);
    expect({ ...bare, document: undefined }).toEqual({ ...keyed, document: undefined });
  });

  describe('page metadata', () => {
    it('returns front matter, the leading H1 as title (kept out of the document) and the description', () => {
      const parsed = markdownToDocument('---\ndescription: About it\nicon: book\nhidden: true\n---\n\n# Welcome\n\nBody.\n');

      expect(parsed.frontMatter).toEqual({ description: 'About it', icon: 'book', hidden: true });
      expect(parsed.title).toBe('Welcome');
      expect(parsed.description).toBe('About it');
      expect(withoutKeys(parsed.document).nodes.map((n) => n.type)).toEqual(['paragraph']);
    });

    it('has no title when the page does not start with an H1', () => {
      const parsed = markdownToDocument('Intro.\n\n# Later heading\n');

      expect(parsed.title).toBeUndefined();
      expect(parsed.document.nodes.map((n) => n.type)).toEqual(['paragraph', 'heading-1']);
    });

    it('reads invalid YAML front matter as part of the body instead of failing', () => {
      const parsed = markdownToDocument('---\ndescription: [broken\n---\n\nBody.\n');

      expect(parsed.frontMatter).toEqual({});
      assertValidDocument(parsed.document);
    });

    it('never throws, whatever it is given', () => {
      const inputs: unknown[] = ['', '\u0000', '{%', '{% hint', '<details>', '>'.repeat(10000), '* '.repeat(5000), null, undefined, 42];
      for (const input of inputs) {
        const parsed = markdownToDocument(input as string);
        assertValidDocument(parsed.document);
      }
    });
  });

  describe('headings and text', () => {
    it('maps h1-h3 to heading-1..3 and deeper headings to heading-3, with anchors in meta.id', () => {
      const { document } = markdownToDocument('Intro\n\n# One\n\n## Two: the sequel\n\n#### Four\n\n## Two: the sequel\n');

      expect(document.nodes.slice(1).map((n) => [n.type, n.meta?.id])).toEqual([
        ['heading-1', 'one'],
        ['heading-2', 'two-the-sequel'],
        ['heading-3', 'four'],
        ['heading-2', 'two-the-sequel-1'],
      ]);
    });

    it('keeps marks on leaves in a fixed order, whichever order the markdown nests them', () => {
      const paragraph = only('**_both_** and _**both**_ and `code` and ~~del~~');

      expect(paragraph.nodes).toEqual([
        {
          object: 'text',
          leaves: [
            { object: 'leaf', text: 'both', marks: [{ object: 'mark', type: 'bold' }, { object: 'mark', type: 'italic' }] },
            { object: 'leaf', text: ' and ', marks: [] },
            { object: 'leaf', text: 'both', marks: [{ object: 'mark', type: 'bold' }, { object: 'mark', type: 'italic' }] },
            { object: 'leaf', text: ' and ', marks: [] },
            { object: 'leaf', text: 'code', marks: [{ object: 'mark', type: 'code' }] },
            { object: 'leaf', text: ' and ', marks: [] },
            { object: 'leaf', text: 'del', marks: [{ object: 'mark', type: 'strikethrough' }] },
          ],
        },
      ]);
    });

    it('turns hard breaks and <br> into "\\n", soft breaks into spaces', () => {
      expect(only('a\\\nb<br>c\nd').nodes).toEqual([text('a\nb\nc d')]);
    });

    it('maps inline HTML formatting tags to marks', () => {
      const paragraph = only('<strong>b</strong><em>i</em><kbd>k</kbd><sup>p</sup><sub>s</sub><code>c</code>');
      const marks = (paragraph.nodes![0] as { leaves: Array<{ marks: Array<{ type: string }> }> }).leaves.map((l) => l.marks.map((m) => m.type));

      expect(marks).toEqual([['bold'], ['italic'], ['keyboard'], ['superscript'], ['subscript'], ['code']]);
    });
  });

  describe('links and references', () => {
    it('keeps link targets as written (escapes undone, no percent-encoding) in url refs', () => {
      const paragraph = only('[a](../page\\_name.md#part) [b](<../.gitbook/assets/image (1).png>) [c](https://e.com/a%20b)');
      const urls = (paragraph.nodes as DocumentNode[])
        .filter((n): n is DocumentInline => n.object === 'inline')
        .map((n) => n.data.ref);

      expect(urls).toEqual([
        { kind: 'url', url: '../page_name.md#part' },
        { kind: 'url', url: '../.gitbook/assets/image (1).png' },
        { kind: 'url', url: 'https://e.com/a%20b' },
      ]);
    });

    it('wraps link text in a link inline between (possibly empty) texts', () => {
      expect(only('[**bold** link](a.md)').nodes).toEqual([
        text(''),
        { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'a.md' } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] }, { object: 'leaf', text: ' link', marks: [] }] }], isVoid: false },
        text(''),
      ]);
    });

    it('reads GitBook mentions ([x](y "mention")) as mention inlines', () => {
      expect(firstInline(only('See [page.md](../page.md "mention").'))).toEqual({
        object: 'inline',
        type: 'mention',
        data: { ref: { kind: 'url', url: '../page.md' } },
        isVoid: true,
      });
    });

    it('makes content-ref blocks from {% content-ref %}, dropping the generated link inside', () => {
      expect(only('{% content-ref url="a/b.md" %}\n[b.md](a/b.md)\n{% endcontent-ref %}')).toEqual({
        object: 'block',
        type: 'content-ref',
        data: { ref: { kind: 'url', url: 'a/b.md' } },
        isVoid: true,
      });
    });
  });

  describe('lists', () => {
    it('makes unordered, ordered (with start) and task lists', () => {
      const [bullets, ordered, tasks] = blocksOf('* a\n* b\n\n3. c\n\n- [ ] d\n- [x] e\n');

      expect(bullets.type).toBe('list-unordered');
      expect(ordered).toMatchObject({ type: 'list-ordered', data: { start: 3 } });
      expect(tasks.type).toBe('list-tasks');
      expect((tasks.nodes as DocumentBlock[]).map((item) => item.data)).toEqual([{ checked: false }, { checked: true }]);
      expect((tasks.nodes![0] as DocumentBlock).nodes).toEqual([expect.objectContaining({ type: 'paragraph', nodes: [text('d')] })]);
    });

    it('keeps "[ ]" as text when not every item is a task', () => {
      const list = only('* [ ] a\n* b\n');

      expect(list.type).toBe('list-unordered');
      expect(((list.nodes![0] as DocumentBlock).nodes![0] as DocumentBlock).nodes).toEqual([text('[ ] a')]);
    });
  });

  describe('code', () => {
    it('makes a code block of code-lines, with syntax and {% code %} options', () => {
      const code = only('{% code title="a.js" lineNumbers="true" overflow="wrap" %}\n```js\nx\n\ny\n```\n{% endcode %}');

      expect(code).toEqual({
        object: 'block',
        type: 'code',
        data: { syntax: 'js', title: 'a.js', overflow: 'wrap', lineNumbers: true },
        nodes: ['x', '', 'y'].map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)], isVoid: false })),
        isVoid: false,
      });
    });

    it("reads GitBook's <pre><code> export, marking the lines wrapped in <strong> as highlighted", () => {
      const code = only('<pre class="language-sql"><code class="lang-sql"><strong>SELECT 1\n</strong>-- &#x3C;done>\n</code></pre>');

      expect(code.data).toEqual({ syntax: 'sql' });
      expect((code.nodes as DocumentBlock[]).map((line) => [line.data, line.nodes])).toEqual([
        [{ highlighted: true }, [text('SELECT 1')]],
        [{}, [text('-- <done>')]],
      ]);
    });

    it('leaves {% code %} as text when it wraps no code block', () => {
      expect(blocksOf('{% code title="x" %}\ntext\n{% endcode %}').map((b) => b.nodes)).toEqual([
        [text('{% code title="x" %}')],
        [text('text')],
        [text('{% endcode %}')],
      ]);
    });
  });

  describe('GitBook blocks', () => {
    it('makes hints, nesting tabs inside them only where the schema allows', () => {
      const hint = only('{% hint style="danger" %}\n#### Moved\n\nSee [x](x.md)\n{% endhint %}');

      expect(hint.type).toBe('hint');
      expect(hint.data).toEqual({ style: 'danger' });
      expect((hint.nodes as DocumentBlock[]).map((n) => n.type)).toEqual(['heading-3', 'paragraph']);
    });

    it('makes tabs of tabs-items with titles', () => {
      const tabs = only('{% tabs %}\n{% tab title="A" %}\none\n{% endtab %}\n{% tab title="B" %}\ntwo\n{% endtab %}\n{% endtabs %}');

      expect(tabs.type).toBe('tabs');
      expect((tabs.nodes as DocumentBlock[]).map((t) => [t.type, t.data.title, (t.nodes![0] as DocumentBlock).nodes])).toEqual([
        ['tabs-item', 'A', [text('one')]],
        ['tabs-item', 'B', [text('two')]],
      ]);
    });

    it('pairs nested tags of the same name', () => {
      // A hint cannot hold a hint, so the inner one is hoisted out; the pairing itself is right.
      const all = blocksOf('{% hint style="info" %}\nouter\n{% hint style="warning" %}\ninner\n{% endhint %}\nafter\n{% endhint %}');
      expect(all.map((b) => [b.type, b.data.style])).toEqual([
        ['hint', 'info'],
        ['hint', 'warning'],
        ['hint', 'info'],
      ]);
    });

    it('does not end a block at an end tag inside a code fence', () => {
      const [hint] = blocksOf('{% hint style="info" %}\nbefore\n{% endhint %}\n\n```\n{% endhint %}\n```\n');

      expect(hint.type).toBe('hint');
      expect(blocksOf('```\n{% endhint %}\n```\n')[0].type).toBe('code');
    });

    it('makes expandables from <details>, with title and body fragments', () => {
      const expandable = only('<details open>\n\n<summary>Click <em>me</em></summary>\n\nBody\n\n</details>');

      expect(expandable).toEqual({
        object: 'block',
        type: 'expandable',
        data: { defaultExpanded: true },
        fragments: [
          {
            object: 'fragment',
            fragment: 'expandable-title',
            type: 'expandable-title',
            nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Click ', marks: [] }, { object: 'leaf', text: 'me', marks: [{ object: 'mark', type: 'italic' }] }] }], isVoid: false }],
          },
          {
            object: 'fragment',
            fragment: 'expandable-body',
            type: 'expandable-body',
            nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Body')], isVoid: false }],
          },
        ],
        isVoid: true,
      });
    });

    it('makes file, embed, stepper and columns blocks', () => {
      const [file, embed, stepper, columns] = blocksOf(
        '{% file src="../.gitbook/assets/a b.pdf" %}\n\n{% embed url="https://youtu.be/x" %}\n\n{% stepper %}\n{% step %}\nOne\n{% endstep %}\n{% endstepper %}\n\n{% columns %}\n{% column width="41.5%" valign="middle" %}\nL\n{% endcolumn %}\n{% endcolumns %}\n',
      );

      expect(file).toEqual({ object: 'block', type: 'file', data: { ref: { kind: 'file', file: '../.gitbook/assets/a b.pdf' } }, isVoid: true });
      expect(embed).toEqual({ object: 'block', type: 'embed', data: { url: 'https://youtu.be/x' }, isVoid: true });
      expect(stepper.type).toBe('stepper');
      expect((stepper.nodes![0] as DocumentBlock).type).toBe('stepper-step');
      expect((columns.nodes![0] as DocumentBlock).data).toEqual({ width: { unit: '%', value: 41.5 }, verticalAlignment: 'middle' });
    });

    it('keeps unknown liquid tags as text, and unwraps HTML elements with no GitBook meaning', () => {
      expect(blocksOf('{% include "x.md" %}\n\n<div class="x">\nInside <span>it</span>\n</div>\n').map((b) => b.nodes)).toEqual([
        [text('{% include "x.md" %}')],
        [text('Inside it')],
      ]);
    });
  });

  describe('tables', () => {
    it('makes a GitBook table: column definitions, ordered records and one fragment per cell', () => {
      const table = only('| Name | Size |\n| :-: | --: |\n| a | **1** |\n| b |  |\n');

      expect(table).toEqual({
        object: 'block',
        type: 'table',
        data: {
          view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
          records: {
            r1: { orderIndex: 'a0', values: { c1: 'r1c1', c2: 'r1c2' } },
            r2: { orderIndex: 'a1', values: { c1: 'r2c1' } },
          },
          definition: {
            c1: { id: 'c1', title: 'Name', type: 'text', textAlignment: 'center' },
            c2: { id: 'c2', title: 'Size', type: 'text', textAlignment: 'right' },
          },
        },
        fragments: [
          { object: 'fragment', fragment: 'r1c1', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('a')], isVoid: false }] },
          { object: 'fragment', fragment: 'r1c2', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('1', 'bold')], isVoid: false }] },
          { object: 'fragment', fragment: 'r2c1', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('b')], isVoid: false }] },
        ],
        isVoid: true,
      });
    });

    it('reads <ul>/<ol> lists in cells as list blocks of the cell fragment', () => {
      const table = only('| A |\n| --- |\n| <p>Peers</p><ul><li>one</li><li>two</li></ul> |\n');

      expect(table.fragments![0].nodes.map((n) => [n.type, (n.nodes as DocumentBlock[]).map((c) => (c.type === 'list-item' ? (c.nodes![0] as DocumentBlock).nodes : c))])).toEqual([
        ['paragraph', [text('Peers')]],
        ['list-unordered', [[text('one')], [text('two')]]],
      ]);
    });

    it('splits cells written as <p>..</p><p>..</p> into paragraphs', () => {
      const table = only('| A |\n| --- |\n| <p><code>x</code> y</p><p>second</p> |\n');

      expect(table.fragments![0].nodes.map((p) => p.nodes)).toEqual([
        [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [{ object: 'mark', type: 'code' }] }, { object: 'leaf', text: ' y', marks: [] }] }],
        [text('second')],
      ]);
    });
  });

  describe('images and math', () => {
    it('makes an images block from a paragraph of images, and from <figure> with its caption', () => {
      const [plain, figure] = blocksOf(
        '![one](a.png) ![two](b.png)\n\n<figure><img src="c (1).png" alt="c" width="300"><figcaption><p>Cap</p></figcaption></figure>\n',
      );

      expect(plain.type).toBe('images');
      expect((plain.nodes as DocumentBlock[]).map((i) => i.data)).toEqual([
        { ref: { kind: 'url', url: 'a.png' }, alt: 'one' },
        { ref: { kind: 'url', url: 'b.png' }, alt: 'two' },
      ]);
      expect(figure.nodes![0]).toEqual({
        object: 'block',
        type: 'image',
        data: { ref: { kind: 'url', url: 'c (1).png' }, alt: 'c', width: 300 },
        fragments: [{ object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('Cap')], isVoid: false }] }],
        isVoid: true,
      });
    });

    it('keeps images inside text as inline images', () => {
      expect(firstInline(only('An ![icon](i.png "Title") here'))).toEqual({
        object: 'inline',
        type: 'inline-image',
        data: { ref: { kind: 'url', url: 'i.png' }, alt: 'icon', caption: 'Title' },
        isVoid: true,
      });
    });

    it('makes math blocks from $$ lines and inline math from $$x$$, but not from single dollars', () => {
      const [math, paragraph] = blocksOf('$$\n\\sum_i x_i\n$$\n\nCosts $5 or $NOIS, area $$\\pi r^2$$.\n');

      expect(math).toEqual({ object: 'block', type: 'math', data: { formula: '\\sum_i x_i' }, isVoid: true });
      expect(firstInline(paragraph)).toEqual({ object: 'inline', type: 'inline-math', data: { formula: '\\pi r^2' }, isVoid: true });
      expect(paragraph.nodes![0]).toEqual(text('Costs $5 or $NOIS, area '));
    });
  });

  describe('keys', () => {
    it('gives every block, inline and fragment a key, unique in the document and the same on every run', () => {
      const markdown = '# T\n\nA [link](a.md).\n\n* x\n* x\n\n| a |\n|---|\n| b |\n\n```\n1\n1\n```\n';
      const first = markdownToDocument(markdown).document;
      const second = markdownToDocument(markdown).document;

      expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      const keys = collectKeys(first);
      expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('keeps the keys of blocks before an edit', () => {
      const before = markdownToDocument('One.\n\nTwo.\n\nThree.\n').document.nodes.map((n) => n.key);
      const after = markdownToDocument('One.\n\nTwo.\n\nThree, edited.\n').document.nodes.map((n) => n.key);

      expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
      expect(after[2]).not.toBe(before[2]);
    });
  });
});

function collectKeys(doc: JSONDocument): string[] {
  const keys: string[] = [];
  const visit = (node: DocumentNode) => {
    if (node.object === 'text') return;
    keys.push(node.key as string);
    node.nodes?.forEach(visit);
    node.fragments?.forEach((f) => {
      keys.push(f.key as string);
      f.nodes.forEach(visit);
    });
  };
  doc.nodes.forEach(visit);
  return keys;
}
