import type {
  DocumentBlock,
  DocumentBlockType,
  DocumentFragment,
  DocumentInline,
  DocumentMark,
  DocumentMarkType,
  DocumentNode,
  DocumentText,
  DocumentTextLeaf,
} from './document.types';

/** Marks in the order leaves list them, so equal formatting always compares equal. */
export const MARK_ORDER: readonly DocumentMarkType[] = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'];

export type MarkSet = number;

export function markBit(type: DocumentMarkType): MarkSet {
  const index = MARK_ORDER.indexOf(type);
  return index === -1 ? 0 : 1 << index;
}

export function marksOf(set: MarkSet): DocumentMark[] {
  const marks: DocumentMark[] = [];
  for (let i = 0; i < MARK_ORDER.length; i++) {
    if (set & (1 << i)) marks.push({ object: 'mark', type: MARK_ORDER[i] });
  }
  return marks;
}

export function markSetOf(marks: readonly DocumentMark[]): MarkSet {
  let set = 0;
  for (const mark of marks) set |= markBit(mark.type);
  return set;
}

export function leaf(text: string, marks: DocumentMark[] = []): DocumentTextLeaf {
  return { object: 'leaf', text, marks };
}

export function textNode(text = '', marks: DocumentMark[] = []): DocumentText {
  return { object: 'text', leaves: [leaf(text, marks)] };
}

// Nodes are created with their `key` slot (filled in by assignKeys) so that every node keeps
// one shape from creation on; adding the property afterwards was a measurable cost.

export function block(type: DocumentBlockType, data: Record<string, unknown>, nodes: DocumentBlock['nodes'] = []): DocumentBlock {
  return { object: 'block', type, key: '', data, nodes, isVoid: false };
}

export function voidBlock(type: DocumentBlockType, data: Record<string, unknown>, fragments?: DocumentFragment[]): DocumentBlock {
  return fragments === undefined
    ? { object: 'block', type, key: '', data, isVoid: true }
    : { object: 'block', type, key: '', data, fragments, isVoid: true };
}

export function paragraph(nodes: Array<DocumentInline | DocumentText>): DocumentBlock {
  return { object: 'block', type: 'paragraph', key: '', data: {}, nodes: normalizeInlineNodes(nodes), isVoid: false };
}

export function inline(type: DocumentInline['type'], data: Record<string, unknown>, nodes?: Array<DocumentInline | DocumentText>): DocumentInline {
  return nodes === undefined
    ? { object: 'inline', type, key: '', data, isVoid: true }
    : { object: 'inline', type, key: '', data, nodes, isVoid: false };
}

export function textParagraph(text: string): DocumentBlock {
  return paragraph([textNode(text)]);
}

export function fragment(name: string, nodes: DocumentBlock[], withType = false): DocumentFragment {
  return withType ? { object: 'fragment', key: '', fragment: name, type: name, nodes } : { object: 'fragment', key: '', fragment: name, nodes };
}

export function isText(node: DocumentNode): node is DocumentText {
  return node.object === 'text';
}

export function isBlock(node: DocumentNode): node is DocumentBlock {
  return node.object === 'block';
}

/**
 * Slate's invariant for inline content, which GitBook documents follow: the list starts and
 * ends with a text node and no two inlines are adjacent (empty texts fill the gaps), and
 * adjacent texts are merged.
 */
export function normalizeInlineNodes(nodes: Array<DocumentInline | DocumentText>): Array<DocumentInline | DocumentText> {
  if (nodes.length === 1 && nodes[0].object === 'text') return nodes;
  const out: Array<DocumentInline | DocumentText> = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.object === 'text') {
      if (last?.object === 'text') out[out.length - 1] = mergeTexts(last, node);
      else out.push(node);
    } else {
      if (!last || last.object !== 'text') out.push(textNode());
      out.push(node);
    }
  }
  if (out.length === 0 || out[out.length - 1].object !== 'text') out.push(textNode());
  return out;
}

function mergeTexts(a: DocumentText, b: DocumentText): DocumentText {
  const leaves = a.leaves.map((l) => leaf(l.text, l.marks));
  for (const next of b.leaves) appendLeaf(leaves, leaf(next.text, next.marks));
  return { object: 'text', leaves: leaves.length > 0 ? leaves : [leaf('')] };
}

/** Appends a leaf (which the caller owns), merging it into the previous one when the marks are equal; drops empty leaves. */
export function appendLeaf(leaves: DocumentTextLeaf[], next: DocumentTextLeaf): void {
  if (next.text === '') return;
  const last = leaves[leaves.length - 1];
  if (!last) leaves.push(next);
  else if (last.text === '') leaves[leaves.length - 1] = next;
  else if (sameMarks(last.marks, next.marks)) last.text += next.text;
  else leaves.push(next);
}

function sameMarks(a: readonly DocumentMark[], b: readonly DocumentMark[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].type !== b[i].type) return false;
    if (a[i].type === 'color' && colorKey(a[i]) !== colorKey(b[i])) return false;
  }
  return true;
}

/** The colours of a `color` mark as one comparable string (`text/background`). */
export function colorKey(mark: DocumentMark | undefined): string {
  const data = (mark?.data ?? {}) as { text?: unknown; background?: unknown };
  return `${String(data.text ?? 'default')}/${String(data.background ?? 'default')}`;
}

/** GitBook's colour tokens (`DocumentTextColor`). */
export const TEXT_COLORS: ReadonlySet<string> = new Set(
  ['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan', '$primary', '$info', '$success', '$warning', '$danger', '$tint'],
);

export function colorMark(text: string, background: string): DocumentMark {
  return { object: 'mark', type: 'color', data: { text, background } };
}
