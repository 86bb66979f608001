import type { DocumentBlock, DocumentFragment } from './document.types';
import { block, fragment, paragraph, voidBlock } from './document-nodes';
import { parseHtmlTag, type HtmlTag } from './html-fragments';
import { inlineNodesToPlainText } from './document-to-plain-text';
import { inlineTokensToSegments, joinSegments, type InlineNodes } from './inline-to-document';
import type { MarkdownToken } from './parse-markdown';

/** A markdown-it token with the tokens nested inside it (see markdown-to-document). */
export interface TokenNode {
  token: MarkdownToken;
  children: TokenNode[];
}

type Alignment = 'left' | 'center' | 'right';

/**
 * GitBook stores a table as columns (`definition`, shown in `view.columns` order), records
 * keyed by id and ordered by `orderIndex`, and one fragment per rich cell, which the record
 * value names. Ids are positional (`c1`, `r1`, `r1c1`) so the same markdown gives the same
 * table; the header row supplies column titles, and an all-empty header means `hideHeader`.
 */
export function tableToDocument(table: TokenNode): DocumentBlock {
  const rows = collectRows(table);
  const header = rows.find((row) => row.header);
  const body = rows.filter((row) => !row.header);
  const columnCount = header?.cells.length ?? 0;

  const columnIds: string[] = [];
  const definition: Record<string, unknown> = {};
  for (let c = 0; c < columnCount; c++) {
    const id = `c${c + 1}`;
    const cell = header!.cells[c];
    columnIds.push(id);
    definition[id] = { id, title: inlineNodesToPlainText(joinSegments(inlineTokensToSegments(cell.tokens))), type: 'text', textAlignment: cell.alignment };
  }

  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  body.forEach((row, r) => {
    const recordId = `r${r + 1}`;
    const values: Record<string, string> = {};
    for (let c = 0; c < columnCount; c++) {
      const content = cellBlocks(row.cells[c]?.tokens ?? []);
      if (content.length === 0) continue;
      const fragmentId = `${recordId}${columnIds[c]}`;
      values[columnIds[c]] = fragmentId;
      fragments.push(fragment(fragmentId, content));
    }
    records[recordId] = { orderIndex: orderIndex(r), values };
  });

  const hideHeader = columnIds.every((id) => (definition[id] as { title: string }).title === '');
  return voidBlock('table', { view: { type: 'grid', columns: columnIds, hideHeader }, records, definition }, fragments);
}

interface Row {
  header: boolean;
  cells: Array<{ alignment: Alignment; tokens: readonly MarkdownToken[] }>;
}

function collectRows(table: TokenNode): Row[] {
  const rows: Row[] = [];
  for (const section of table.children) {
    const header = section.token.type === 'thead_open';
    for (const tr of section.children) {
      if (tr.token.type !== 'tr_open') continue;
      const cells = tr.children
        .filter((cell) => cell.token.type === 'th_open' || cell.token.type === 'td_open')
        .map((cell) => ({ alignment: alignmentOf(cell.token), tokens: cell.children[0]?.token.children ?? [] }));
      rows.push({ header, cells });
    }
  }
  return rows;
}

/**
 * A cell's blocks: paragraphs (GitBook separates them with `<p>`), and the one-level
 * `<ul>`/`<ol>` lists GitBook writes into cells, which become list blocks.
 */
function cellBlocks(tokens: readonly MarkdownToken[]): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let run: MarkdownToken[] = [];
  const flush = () => {
    for (const p of cellParagraphs(inlineTokensToSegments(run))) blocks.push(p);
    run = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const list = htmlListAt(tokens, i);
    if (!list) {
      run.push(tokens[i]);
      continue;
    }
    flush();
    blocks.push(list.block);
    i = list.end;
  }
  flush();
  return blocks;
}

function cellParagraphs(segments: InlineNodes[]): DocumentBlock[] {
  return segments.filter((segment) => segment.some((n) => n.object === 'inline' || n.leaves.some((l) => l.text.trim() !== ''))).map(paragraph);
}

/** `<ul><li>..</li>..</ul>` starting at `start`, with the index of its closing tag; null if it is anything else. */
function htmlListAt(tokens: readonly MarkdownToken[], start: number): { block: DocumentBlock; end: number } | null {
  const open = htmlTagOf(tokens[start]);
  if (!open || open.closing || (open.name !== 'ul' && open.name !== 'ol')) return null;
  const items: DocumentBlock[] = [];
  let item: MarkdownToken[] | null = null;
  for (let i = start + 1; i < tokens.length; i++) {
    const tag = htmlTagOf(tokens[i]);
    if (tag?.name === 'li') {
      if (!tag.closing && item === null) item = [];
      else if (tag.closing && item !== null) {
        items.push(block('list-item', {}, cellParagraphs(inlineTokensToSegments(item))));
        item = null;
      } else return null;
    } else if (tag?.name === open.name && tag.closing && item === null) {
      const type = open.name === 'ul' ? 'list-unordered' : 'list-ordered';
      return { block: block(type, {}, items), end: i };
    } else if (tag && (tag.name === 'ul' || tag.name === 'ol')) {
      return null;
    } else if (item !== null) {
      item.push(tokens[i]);
    } else if (!(tokens[i].type === 'text' && tokens[i].content.trim() === '')) {
      return null;
    }
  }
  return null;
}

function htmlTagOf(token: MarkdownToken | undefined): HtmlTag | null {
  return token?.type === 'html_inline' ? parseHtmlTag(token.content) : null;
}

function alignmentOf(cell: MarkdownToken): Alignment {
  const style = String(cell.attrGet('style') ?? '');
  if (style.includes('center')) return 'center';
  if (style.includes('right')) return 'right';
  return 'left';
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The n-th key of the fractional-indexing sequence GitBook uses for `orderIndex`
 * ("a0".."az", then "b00".."bzz", ...): fixed-length digits per head letter keep
 * the keys in lexicographic order.
 */
export function orderIndex(n: number): string {
  let digits = 1;
  let capacity = DIGITS.length;
  let offset = n;
  while (offset >= capacity) {
    offset -= capacity;
    digits++;
    capacity *= DIGITS.length;
  }
  let key = '';
  for (let i = 0; i < digits; i++) {
    key = DIGITS[offset % DIGITS.length] + key;
    offset = Math.floor(offset / DIGITS.length);
  }
  return String.fromCharCode(0x60 + digits) + key;
}
