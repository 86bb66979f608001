import type { DocumentBlock, DocumentInline, DocumentMark, DocumentText, DocumentTextLeaf, JSONDocument } from '../document.types';
import { appendLeaf, block, fragment, inline, leaf, paragraph, textNode, voidBlock } from '../document-nodes';
import { fitDocumentNodes } from '../fit-schema-nesting';

/**
 * Seeded generators of GitBook documents for property tests: text mixing every character
 * markdown gives a meaning to, arbitrary mark combinations, and blocks nested in ways the
 * schema does and does not allow (then fitted, as markdownToDocument does).
 */
export class RandomDocuments {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A document with one paragraph of marked text, links, images and formulas. */
  inlineDocument(): JSONDocument {
    for (;;) {
      const para = this.paragraph();
      const onlyImages = (para.nodes ?? []).every(
        (n) => (n.object === 'inline' && n.type === 'inline-image') || (n.object === 'text' && n.leaves.every((l) => l.text.trim() === '')),
      );
      // A paragraph holding only images is an `images` block by design; skip that shape.
      if (!onlyImages) return { object: 'document', data: {}, nodes: [para] };
    }
  }

  /** A document of nested blocks, already fitted to the schema's nesting rules. */
  blockDocument(): JSONDocument {
    let nodes = fitDocumentNodes(this.blocks(0, 1 + this.int(4)));
    // A leading H1 is the page title, not part of the document.
    if (nodes[0]?.type === 'heading-1') nodes = nodes.slice(1);
    return { object: 'document', data: {}, nodes };
  }

  private next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return this.state / 2 ** 32;
  }

  private int(below: number): number {
    return Math.floor(this.next() * below);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  private static readonly CHUNKS = [
    ...['a', 'word', ' ', '  ', '*', '**', '_', '`', '``', '\\', '[', ']', '(', ')', '<', '>', '<b>', '#', '# ', '-', '- ', '+ '],
    ...['1.', '1) ', '$', '$$', '|', '~', '~~', '&amp;', '&', '!', '"', "'", '.', ',', '中文', '😀', '\t', '{%', '{% hint %}'],
    ...['=', '---', '\n', ':', 'x_y', 'http://x.y', '\u00a0', '\u3000'],
  ];

  private static readonly MARKS: DocumentMark['type'][] = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'];

  private text(): string {
    let text = '';
    for (let i = 1 + this.int(4); i > 0; i--) text += this.pick(RandomDocuments.CHUNKS);
    return text;
  }

  private marks(allowCode = true): DocumentMark[] {
    return RandomDocuments.MARKS.filter((type) => (allowCode || type !== 'code') && this.next() < 0.18).map((type) => ({ object: 'mark', type }));
  }

  private paragraph(): DocumentBlock {
    const nodes: Array<DocumentInline | DocumentText> = [];
    for (let i = 1 + this.int(5); i > 0; i--) {
      const roll = this.next();
      if (roll < 0.12) {
        const label = this.text().replace(/\n/g, '');
        const url = this.pick(['a.md', 'x y.md', 'https://e.com/?a=1&b=2', '../b (1).md', 'c)d', '#anchor']);
        nodes.push(inline('link', { ref: { kind: 'url', url } }, [textNode(label, label ? this.marks(false) : [])]));
      } else if (roll < 0.17) {
        nodes.push(inline('inline-math', { formula: this.pick(['x^2', 'a+b', '\\frac{1}{2}']) }));
      } else if (roll < 0.2) {
        const alt = this.pick(['', 'alt *x*', 'a]b']);
        nodes.push(inline('inline-image', alt ? { ref: { kind: 'url', url: this.pick(['i.png', 'a b.png']) }, alt } : { ref: { kind: 'url', url: 'i.png' } }));
      } else {
        const leaves: DocumentTextLeaf[] = [];
        for (let j = 1 + this.int(4); j > 0; j--) {
          const marks = this.marks();
          const text = marks.some((m) => m.type === 'code') ? this.text().replace(/\n/g, '') : this.text();
          appendLeaf(leaves, leaf(text, marks));
        }
        if (leaves.length > 0) nodes.push({ object: 'text', leaves });
      }
    }
    return paragraph(nodes);
  }

  private static readonly WORDS = ['alpha', 'beta *x*', 'gamma_1', '中文', '`code`', '<tag>', '{% hint %}', '# not heading', '1. not list'];
  private static readonly MORE_WORDS = ['- dash', '> quote', '$$', 'a|b', '</details>', '<figure>'];

  private plainParagraph(): DocumentBlock {
    const words = [...RandomDocuments.WORDS, ...RandomDocuments.MORE_WORDS];
    const text = this.pick(words) + (this.next() < 0.5 ? ` ${this.pick(words)}` : '');
    if (this.next() < 0.15) return paragraph([textNode('bold '), { object: 'text', leaves: [leaf(text, [{ object: 'mark', type: 'bold' }])] }]);
    return paragraph([textNode(text)]);
  }

  private blocks(depth: number, count = 1 + this.int(3)): DocumentBlock[] {
    return Array.from({ length: count }, () => this.block(depth));
  }

  private block(depth: number): DocumentBlock {
    switch (this.int(depth >= 3 ? 8 : 20)) {
      case 2:
        return { ...this.plainParagraph(), type: this.pick(['heading-2', 'heading-3']), data: {} };
      case 3:
        return this.code();
      case 4:
        return voidBlock('math', { formula: this.pick(['x^2', 'a \\\\ b']) });
      case 5:
        return voidBlock('divider', {});
      case 6:
        return block('images', {}, [this.image()]);
      case 7:
        return this.table();
      case 8: {
        const type = this.pick(['list-unordered', 'list-ordered', 'list-tasks']);
        const items = Array.from({ length: 1 + this.int(3) }, () =>
          block('list-item', type === 'list-tasks' ? { checked: this.next() < 0.5 } : {}, [
            this.plainParagraph(),
            ...(this.next() < 0.4 ? this.blocks(depth + 1, 1) : []),
          ]),
        );
        return block(type, {}, items);
      }
      case 9:
        return block('blockquote', {}, this.blocks(depth + 1));
      case 10:
      case 11:
        return block('hint', { style: this.pick(['info', 'warning', 'danger', 'success']) }, this.blocks(depth + 1));
      case 12:
        return block('tabs', {}, Array.from({ length: 1 + this.int(2) }, () => block('tabs-item', { title: this.pick(['One', 'Two "2"']) }, this.blocks(depth + 1))));
      case 13:
        return voidBlock('expandable', this.next() < 0.3 ? { defaultExpanded: true } : {}, [
          fragment('expandable-title', [this.plainParagraph()], true),
          fragment('expandable-body', this.blocks(depth + 1), true),
        ]);
      case 14:
        return voidBlock('file', { ref: { kind: 'file', file: '../.gitbook/assets/a.pdf' } });
      case 15:
        return voidBlock('embed', { url: 'https://youtu.be/x' });
      case 16:
        return voidBlock('content-ref', { ref: { kind: 'url', url: this.pick(['a.md', 'dir/']) } });
      case 17:
        return block('stepper', {}, Array.from({ length: 1 + this.int(2) }, () => block('stepper-step', {}, this.blocks(depth + 1))));
      case 18:
        return block('columns', {}, [0, 1].map(() => block('column', this.next() < 0.5 ? { width: { unit: '%', value: 50 } } : {}, this.blocks(depth + 1))));
      default:
        return this.plainParagraph();
    }
  }

  private code(): DocumentBlock {
    const data: Record<string, unknown> = {};
    if (this.next() < 0.5) data.syntax = this.pick(['js', 'sql', 'bash']);
    if (this.next() < 0.3) data.title = this.pick(['a.js', 'x "y"']);
    if (this.next() < 0.2) data.lineNumbers = true;
    if (this.next() < 0.2) data.overflow = 'wrap';
    const lines = Array.from({ length: 1 + this.int(3) }, () =>
      block('code-line', {}, [textNode(this.pick(['x = 1', '', '  indented', '```', '{% endhint %}', '$$', '</details>', '\ttab']))]),
    );
    return block('code', data, lines);
  }

  private image(): DocumentBlock {
    const data: Record<string, unknown> = { ref: { kind: 'url', url: this.pick(['a.png', 'a b.png', '../.gitbook/assets/x (1).png']) } };
    if (this.next() < 0.5) data.alt = 'alt';
    return voidBlock('image', data, this.next() < 0.5 ? [fragment('caption', [this.plainParagraph()])] : []);
  }

  private table(): DocumentBlock {
    const columns = Array.from({ length: 1 + this.int(3) }, (_, c) => `c${c + 1}`);
    const definition: Record<string, unknown> = {};
    for (const id of columns) {
      definition[id] = { id, title: this.pick(['Name', 'a|b', 'x']), type: 'text', textAlignment: this.pick(['left', 'center', 'right']) };
    }
    const records: Record<string, unknown> = {};
    const fragments = [];
    const rows = this.int(3);
    for (let r = 1; r <= rows; r++) {
      const values: Record<string, string> = {};
      for (const id of columns) {
        if (this.next() >= 0.8) continue;
        values[id] = `r${r}${id}`;
        fragments.push(fragment(`r${r}${id}`, this.next() < 0.3 ? [this.plainParagraph(), this.plainParagraph()] : [this.plainParagraph()]));
      }
      records[`r${r}`] = { orderIndex: `a${r - 1}`, values };
    }
    return voidBlock('table', { view: { type: 'grid', columns, hideHeader: false }, records, definition }, fragments);
  }
}
