import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentText } from './document.types';
import { block, fragment, inline, paragraph, textNode } from './document-nodes';
import { inlineNodesToPlainText } from './document-to-plain-text';

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
const TABS_ITEM_CONTENT = [
  ...ESSENTIALS,
  ...['content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'prompt', 'blockquote', 'math', 'integration'],
];

/**
 * Which block types each container may hold, as `@gitbook/api` spec/openapi.json states them
 * (DocumentBlocksTopLevels, DocumentBlockHint.nodes, ...); a spec checks this table against the
 * schema. Markdown nests freely, GitBook does not: a hint cannot hold a code block, a tab
 * cannot hold a table.
 */
export const ALLOWED_CHILDREN: Readonly<Record<string, ReadonlySet<string>>> = {
  document: new Set([
    ...ESSENTIALS,
    ...['blockquote', 'hint', 'prompt', 'images', 'file', 'drawing', 'embed', 'code', 'math', 'expandable', 'tabs', 'table'],
    ...['swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref', 'integration', 'reusable-content'],
    ...['stepper', 'if', 'columns', 'updates'],
  ]),
  'list-ordered': new Set(['list-item']),
  'list-unordered': new Set(['list-item']),
  'list-tasks': new Set(['list-item']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  hint: new Set([...ESSENTIALS, 'embed', 'integration', 'table']),
  tabs: new Set(['tabs-item']),
  'tabs-item': new Set(TABS_ITEM_CONTENT),
  stepper: new Set(['stepper-step']),
  'stepper-step': new Set([...TABS_ITEM_CONTENT, 'expandable']),
  columns: new Set(['column']),
  column: new Set([
    ...ESSENTIALS,
    ...['images', 'code', 'hint', 'prompt', 'content-ref', 'drawing', 'embed', 'file', 'integration', 'math', 'blockquote', 'table'],
    ...['expandable', 'stepper'],
  ]),
  'expandable-body': new Set([
    ...ESSENTIALS,
    ...['file', 'images', 'code', 'table', 'hint', 'prompt', 'blockquote', 'reusable-content', 'integration'],
  ]),
  images: new Set(['image']),
  code: new Set(['code-line']),
  updates: new Set(['update']),
  update: new Set([
    ...ESSENTIALS,
    ...['content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'prompt', 'blockquote', 'math', 'integration', 'tabs', 'expandable'],
  ]),
};

const LISTS = new Set(['list-ordered', 'list-unordered', 'list-tasks']);

/** Item blocks that only exist inside one parent type; a stray one is wrapped in that parent. */
const ITEM_PARENTS: Record<string, string> = {
  'list-item': 'list-unordered',
  'tabs-item': 'tabs',
  'stepper-step': 'stepper',
  column: 'columns',
  image: 'images',
  'code-line': 'code',
  update: 'updates',
};

/**
 * Makes a block tree obey the schema's nesting rules without losing content. A child its
 * container cannot hold is, in order of preference:
 * - rewritten in an allowed form that keeps its content: an `images` block becomes a paragraph
 *   of inline images, block math a paragraph with inline math;
 * - wrapped: a table inside a tab or step goes into an info hint (hints may hold tables);
 * - hoisted: the container is split around it and it moves up one level (repeating upwards),
 *   e.g. `hint[p, code, p]` becomes `hint[p], code, hint[p]`.
 * The result is a fixed point: converting it to markdown and back gives the same tree.
 */
export function fitDocumentNodes(nodes: DocumentBlock[]): DocumentBlock[] {
  return fitChildren('document', nodes).flat();
}

/** Returns the container's children cut into segments, with hoisted blocks between them. */
function fitChildren(container: string, children: readonly DocumentBlock[]): DocumentBlock[][] {
  const allowed = ALLOWED_CHILDREN[container];
  const parts: DocumentBlock[][] = [];
  let segment: DocumentBlock[] = [];
  const hoisted: DocumentBlock[] = [];
  const add = (fitted: DocumentBlock) => {
    const placed = allowed ? place(fitted, allowed) : fitted;
    if (placed) {
      segment.push(placed);
      return;
    }
    parts.push(segment);
    hoisted.push(fitted);
    segment = [];
  };
  for (const child of children) {
    if (hasBlockChildren(child)) for (const fitted of fitBlock(child)) add(fitted);
    else add(child);
  }
  parts.push(segment);
  // Odd entries are single hoisted blocks; the caller splits its container around them.
  const result: DocumentBlock[][] = [parts[0]];
  for (let i = 1; i < parts.length; i++) result.push([hoisted[i - 1]], parts[i]);
  return result;
}

function hasBlockChildren(node: DocumentBlock): boolean {
  return node.type === 'expandable' || (node.nodes !== undefined && ALLOWED_CHILDREN[node.type] !== undefined && node.type !== 'code' && node.type !== 'images');
}

/** A child's allowed form inside a container with the given rules, or null to hoist it. */
function place(child: DocumentBlock, allowed: ReadonlySet<string>): DocumentBlock | null {
  if (allowed.has(child.type)) return child;
  const parentType = ITEM_PARENTS[child.type];
  if (parentType && allowed.has(parentType)) return block(parentType, parentType === 'updates' ? { format: 'full' } : {}, [child]);
  if (allowed.has('paragraph')) {
    if (child.type === 'images') return imagesAsParagraph(child);
    if (child.type === 'math') return paragraph([inline('inline-math', { formula: child.data.formula ?? '' })]);
  }
  if (child.type === 'table' && allowed.has('hint')) return block('hint', { style: 'info' }, [child]);
  return null;
}

/** Fits one block's descendants; returns the block, or its pieces when something had to move out. */
function fitBlock(node: DocumentBlock): DocumentBlock[] {
  if (node.type === 'expandable') return fitExpandable(node);
  if (!node.nodes || !ALLOWED_CHILDREN[node.type] || node.type === 'code' || node.type === 'images') return [node];

  const original = node.nodes as DocumentBlock[];
  const pieces = fitChildren(node.type, original);
  if (pieces.length === 1) {
    const same = pieces[0].length === original.length && pieces[0].every((child, i) => child === original[i]);
    return [same ? node : { ...node, nodes: pieces[0] }];
  }

  const out: DocumentBlock[] = [];
  // A container all of whose content moves out stays, empty, before it (a hint holding only
  // code is still a hint): dropping it would lose its kind and data (style, title).
  if (!LISTS.has(node.type) && pieces.every((piece, index) => index % 2 === 1 || piece.length === 0)) {
    out.push({ ...node, nodes: [] });
  }
  let listOffset = 0;
  pieces.forEach((piece, index) => {
    if (index % 2 === 1) {
      out.push(piece[0]);
      return;
    }
    if (piece.length === 0) return;
    const copy: DocumentBlock = { ...node, nodes: piece };
    if (node.type === 'list-ordered') {
      const start = typeof node.data.start === 'number' ? node.data.start : 1;
      copy.data = start + listOffset === 1 ? {} : { ...node.data, start: start + listOffset };
      listOffset += piece.length;
    }
    out.push(copy);
  });
  return out;
}

function fitExpandable(node: DocumentBlock): DocumentBlock[] {
  const title = node.fragments?.find((f) => f.fragment === 'expandable-title');
  const body = node.fragments?.find((f) => f.fragment === 'expandable-body');
  const pieces = fitChildren('expandable-body', body?.nodes ?? []);
  const out: DocumentBlock[] = [];
  const withBody = (nodes: DocumentBlock[]): DocumentBlock => ({
    ...node,
    fragments: [title ?? fragment('expandable-title', [paragraph([textNode()])], true), fragment('expandable-body', nodes, true)],
  });
  let bodies = 0;
  pieces.forEach((piece, index) => {
    if (index % 2 === 1) out.push(piece[0]);
    else if (piece.length > 0) (out.push(withBody(piece)), bodies++);
  });
  // The body must hold at least one block (a hoisted expandable is another one: this one stays).
  if (bodies === 0) out.unshift(withBody([paragraph([textNode()])]));
  return out;
}

function imagesAsParagraph(images: DocumentBlock): DocumentBlock {
  const inlines: Array<DocumentInline | DocumentText> = [];
  for (const image of (images.nodes ?? []) as DocumentBlock[]) {
    const data: Record<string, unknown> = { ref: image.data.ref };
    if (image.data.alt) data.alt = image.data.alt;
    const caption = captionText(image.fragments);
    if (caption) data.caption = caption;
    inlines.push(inline('inline-image', data));
  }
  return paragraph(inlines);
}

function captionText(fragments: DocumentFragment[] | undefined): string {
  const caption = fragments?.find((f) => f.fragment === 'caption');
  if (!caption) return '';
  return caption.nodes.map((p) => inlineNodesToPlainText(p.nodes ?? [])).join(' ');
}
