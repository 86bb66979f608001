import type { DocumentBlock, DocumentInline, DocumentNode, DocumentText, JSONDocument } from './document.types';

/**
 * The words of a document for search indexing: one line per paragraph, heading, list item,
 * code line or table row, with image alt text and captions, tab and expandable titles, and
 * formulas included. Markup and link targets are left out.
 */
export function documentToPlainText(doc: JSONDocument): string {
  const lines: string[] = [];
  for (const node of doc.nodes) collectBlockText(node, lines);
  return lines.join('\n');
}

/** Plain text of a list of blocks, one line per text block. */
export function blocksToPlainText(blocks: readonly DocumentBlock[]): string {
  const lines: string[] = [];
  for (const node of blocks) collectBlockText(node, lines);
  return lines.join('\n');
}

/** Plain text of inline content: texts, link labels, formulas, image alt texts. */
export function inlineNodesToPlainText(nodes: ReadonlyArray<DocumentNode>): string {
  let text = '';
  for (const node of nodes) {
    if (node.object === 'text') text += textOf(node);
    else if (node.object === 'inline') text += inlineText(node);
  }
  return text;
}

function textOf(node: DocumentText): string {
  let text = '';
  for (const leaf of node.leaves) text += leaf.text;
  return text;
}

function inlineText(node: DocumentInline): string {
  switch (node.type) {
    case 'inline-math':
      return String(node.data.formula ?? '');
    case 'inline-image':
      return String(node.data.alt ?? '');
    case 'emoji':
      return emojiText(node.data.code);
    case 'button':
      return String(node.data.label ?? '');
    default:
      return inlineNodesToPlainText(node.nodes ?? []);
  }
}

function collectBlockText(block: DocumentBlock, lines: string[]): void {
  switch (block.type) {
    case 'paragraph':
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
    case 'code-line':
      pushLine(lines, inlineNodesToPlainText(block.nodes ?? []));
      return;
    case 'math':
      pushLine(lines, String(block.data.formula ?? ''));
      return;
    case 'image':
      pushLine(lines, String(block.data.alt ?? ''));
      break;
    case 'tabs-item':
      pushLine(lines, String(block.data.title ?? ''));
      break;
    case 'table':
      collectTableText(block, lines);
      return;
  }
  for (const child of block.nodes ?? []) {
    if (child.object === 'block') collectBlockText(child, lines);
    else pushLine(lines, inlineNodesToPlainText([child]));
  }
  for (const fragment of block.fragments ?? []) {
    for (const child of fragment.nodes) collectBlockText(child, lines);
  }
}

function collectTableText(block: DocumentBlock, lines: string[]): void {
  const definition = (block.data.definition ?? {}) as Record<string, { title?: string; type?: string; options?: Array<{ value?: string; label?: string }> }>;
  const view = block.data.view as { columns?: string[] } | undefined;
  const columns = view?.columns ?? Object.keys(definition);
  pushLine(lines, columns.map((id) => definition[id]?.title ?? '').filter(Boolean).join(' '));
  const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
  const records = Object.values((block.data.records ?? {}) as Record<string, { orderIndex?: string; values?: Record<string, unknown> }>);
  records.sort((a, b) => ((a.orderIndex ?? '') < (b.orderIndex ?? '') ? -1 : (a.orderIndex ?? '') > (b.orderIndex ?? '') ? 1 : 0));
  for (const record of records) {
    const cells = columns.map((id) => {
      const value = record.values?.[id];
      const cellFragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (cellFragment) return blocksToPlainText(cellFragment.nodes).replace(/\s+/g, ' ').trim();
      const column = definition[id];
      // Select cells hold option ids: their labels are the words a reader sees.
      if (column?.type === 'select' && Array.isArray(value)) return value.map((v) => column.options?.find((o) => o.value === v)?.label ?? '').join(' ');
      if (column?.type === 'checkbox') return '';
      return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
    });
    pushLine(lines, cells.filter(Boolean).join(' '));
  }
}

function pushLine(lines: string[], text: string): void {
  if (text.trim() !== '') lines.push(text);
}

function emojiText(code: unknown): string {
  const codePoint = typeof code === 'string' ? parseInt(code, 16) : NaN;
  return Number.isFinite(codePoint) && codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '';
}
