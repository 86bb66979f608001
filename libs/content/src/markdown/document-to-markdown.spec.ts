import type { DocumentBlock, DocumentInline, DocumentText, JSONDocument } from './document.types';
import { block, inline, leaf, paragraph, textNode, voidBlock } from './document-nodes';
import { documentToMarkdown } from './document-to-markdown';
import { markdownToDocument } from './markdown-to-document';
import { withoutKeys } from './testing/round-trip';

const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });
const marked = (text: string, ...marks: string[]): DocumentText => ({
  object: 'text',
  leaves: [leaf(text, marks.map((type) => ({ object: 'mark', type: type as 'bold' })))],
});

/** Writes a paragraph of the given nodes and checks markdown-it reads it back unchanged. */
function writeParagraph(...nodes: Array<DocumentText | DocumentInline>): string {
  const written = documentToMarkdown(doc(paragraph(nodes)));
  expect(withoutKeys(markdownToDocument(written).document).nodes).toEqual(withoutKeys(doc(paragraph(nodes))).nodes);
  return written;
}

describe('documentToMarkdown', () => {
  it('writes front matter, then the title as an H1, then the body', () => {
    expect(documentToMarkdown(doc(paragraph([textNode('Body')])), { frontMatter: { description: 'D' }, title: 'Hello *world*' })).toBe(
      '---\ndescription: D\n---\n\n# Hello \\*world\\*\n\nBody\n',
    );
  });

  it('writes an empty document as an empty string', () => {
    expect(documentToMarkdown(doc())).toBe('');
  });

  describe('text', () => {
    it('escapes characters markdown would interpret', () => {
      expect(writeParagraph(textNode('*a* _b_ `c` [d] <e> f|g ~~h~~ $$i$$ &amp; \\'))).toBe(
        '\\*a\\* \\_b\\_ \\`c\\` \\[d\\] \\<e> f\\|g \\~\\~h\\~\\~ \\$\\$i\\$\\$ \\&amp; \\\\\n',
      );
    });

    it('escapes block syntax only at the start of a line', () => {
      expect(writeParagraph(textNode('# a #b\n- c\n1. d 2. e\n{% hint %}'))).toBe('\\# a #b\\\n\\- c\\\n1\\. d 2. e\\\n{\\% hint %}\n');
    });

    it('writes edge whitespace and a final line break so they survive', () => {
      expect(writeParagraph(textNode(' lead\n  indented\ttrail \n'))).toBe('&#x20;lead\\\n&#x20; indented\ttrail <br>\n');
    });

    it('uses delimiters where CommonMark reads them back, HTML tags elsewhere', () => {
      expect(writeParagraph(marked('plain', 'bold'), textNode(' and '), marked('both', 'bold', 'italic'))).toBe('**plain** and ***both***\n');
      expect(writeParagraph(textNode('a'), marked(' spaced ', 'bold'), textNode('b'))).toBe('a<strong> spaced </strong>b\n');
      expect(writeParagraph(textNode('x'), marked('"q"', 'italic'), textNode('y'))).toBe('x<em>"q"</em>y\n');
      expect(writeParagraph(marked('k', 'keyboard'), marked('2', 'superscript'), marked('i', 'subscript'))).toBe('<kbd>k</kbd><sup>2</sup><sub>i</sub>\n');
    });

    it('writes code spans with fences longer than the backticks inside', () => {
      expect(writeParagraph(marked('a `b` c', 'code'), textNode(' '), marked('`', 'code'), textNode(' '), marked(' x ', 'code'))).toBe(
        '``a `b` c`` `` ` `` `  x  `\n',
      );
    });

    it('escapes a "!" that would turn a following link into an image', () => {
      expect(writeParagraph(textNode('Wow!'), inline('link', { ref: { kind: 'url', url: 'a.md' } }, [textNode('go')]))).toBe('Wow\\![go](a.md)\n');
    });
  });

  describe('documents from the API', () => {
    it('writes references of any kind by their id or url: page and file ids as the /pages/<id> and /files/<id> links writes resolve', () => {
      const markdown = documentToMarkdown(
        doc(
          paragraph([inline('link', { ref: { kind: 'page', page: 'pageId123' } }, [textNode('page')]), inline('link', { ref: { kind: 'anchor', anchor: 'sec' } }, [textNode('anchor')])]),
          voidBlock('file', { ref: { kind: 'file', file: 'fileId' } }),
          block('images', {}, [voidBlock('image', { ref: { kind: 'file', file: 'imageId' } }, [])]),
        ),
      );

      expect(markdown).toBe('[page](/pages/pageId123)[anchor](#sec)\n\n{% file src="fileId" %}\n\n![](imageId)\n');
      // File ids (20 characters) as written by reads; short names stay paths.
      const ids = documentToMarkdown(doc(block('images', {}, [voidBlock('image', { ref: { kind: 'file', file: 'AbCdEfGhIjKlMnOpQrSt' } }, [])])));
      expect(ids).toBe('![](/files/AbCdEfGhIjKlMnOpQrSt)\n');
    });

    it('writes table values that are not fragments as text', () => {
      const table = voidBlock(
        'table',
        {
          view: { type: 'grid', columns: ['a', 'b', 'c', 'd'], hideHeader: false },
          definition: Object.fromEntries(['a', 'b', 'c', 'd'].map((id) => [id, { id, title: id.toUpperCase(), type: 'text', textAlignment: 'left' }])),
          records: { x: { orderIndex: 'a1', values: { a: 'text | pipe', b: 42, c: true, d: ['x', 'y'] } }, y: { orderIndex: 'a0', values: { a: 'first' } } },
        },
        [],
      );

      expect(documentToMarkdown(doc(table))).toBe('| A | B | C | D |\n| --- | --- | --- | --- |\n| first |  |  |  |\n| text \\| pipe | 42 | true | x, y |\n');
    });

    it('keeps the content of blocks without a markdown form and writes emoji as characters', () => {
      const unknown = { object: 'block' as const, type: 'integration', data: { integration: 'x' }, nodes: [paragraph([textNode('Conditional')])] };
      const emoji = inline('emoji', { code: '1f600' });

      expect(documentToMarkdown(doc(unknown, paragraph([textNode('Hi '), emoji])))).toBe('Conditional\n\nHi 😀\n');
    });
  });

  describe('block layout', () => {
    it('alternates bullets between adjacent lists and never writes `* * *`', () => {
      const list = (...items: DocumentBlock[][]) => block('list-unordered', {}, items.map((nodes) => block('list-item', {}, nodes)));
      const written = documentToMarkdown(doc(list([paragraph([textNode('a')])]), list([list([list([])])])));

      expect(written).toBe('* a\n\n- * -\n');
      expect(withoutKeys(markdownToDocument(written).document).nodes.map((n) => n.type)).toEqual(['list-unordered', 'list-unordered']);
    });

    it('chooses a code fence the content cannot close', () => {
      const code = (syntax: string, line: string) => block('code', { syntax }, [block('code-line', {}, [textNode(line)])]);

      expect(documentToMarkdown(doc(code('md', '````')))).toBe('`````md\n````\n`````\n');
      expect(documentToMarkdown(doc(code('we`ird', 'x')))).toBe('~~~we`ird\nx\n~~~\n');
    });

    it('keeps an end tag out of an HTML block that ends a container', () => {
      const figure = block('images', {}, [voidBlock('image', { ref: { kind: 'url', url: 'a.png' }, width: 10 }, [])]);
      const written = documentToMarkdown(doc(block('tabs', {}, [block('tabs-item', { title: 'T' }, [figure])])));

      expect(written).toBe('{% tabs %}\n{% tab title="T" %}\n<figure><img src="a.png" alt="" width="10"><figcaption></figcaption></figure>\n\n{% endtab %}\n{% endtabs %}\n');
    });
  });
});
