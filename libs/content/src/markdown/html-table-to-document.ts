import { isTag, type ChildNode, type Element } from 'domhandler';
import type { DocumentBlock, DocumentFragment } from './document.types';
import { fragment, voidBlock } from './document-nodes';
import { domText, domToBlocks } from './html-to-document';
import { orderIndex } from './table-to-document';

/** Column types GitBook writes as `data-type` on a `<th>` (text when absent). */
const COLUMN_TYPES = new Set(['text', 'number', 'checkbox', 'files', 'users', 'rating', 'select', 'content-ref', 'image']);

interface Column {
  id: string;
  type: string;
  hidden: boolean;
}

/**
 * An HTML `<table>` as GitBook writes the tables markdown cannot hold: a `<thead>` row of
 * column definitions (`data-type`, `data-hidden`, `data-card-target`, `data-card-cover`,
 * `data-card-cover-dark`, `width`, `<select>` options) and one `<tr>` per record. The table's
 * `data-view="cards"`, `data-card-size`, `data-card-wrap`, `data-header-hidden`,
 * `data-full-width` and `data-search` are its view and options. Ids are positional, as for
 * markdown tables (see table-to-document).
 */
export function htmlTableToDocument(table: Element): DocumentBlock {
  const rows = tableRows(table);
  const headerRow = rows.find((row) => row.header) ?? (rows[0]?.cells.every((cell) => cell.name === 'th') ? { ...rows[0], header: true } : undefined);
  const bodyRows = rows.filter((row) => row !== headerRow && !(headerRow && row.cells === headerRow.cells));
  const width = Math.max(headerRow?.cells.length ?? 0, ...bodyRows.map((row) => row.cells.length));
  const attrs = table.attribs;
  const cards = attrs['data-view'] === 'cards';

  const columns: Column[] = [];
  const definition: Record<string, Record<string, unknown>> = {};
  const columnWidths: Record<string, number> = {};
  const view: Record<string, unknown> = cards
    ? { type: 'cards', columns: [], cardSize: attrs['data-card-size'] === 'large' ? 'large' : 'medium' }
    : { type: 'grid', columns: [], hideHeader: 'data-header-hidden' in attrs || !headerRow };
  for (let c = 0; c < width; c++) {
    const id = `c${c + 1}`;
    const th = headerRow?.cells[c];
    const thAttrs = th?.attribs ?? {};
    const select = th ? findElement(th.children, 'select') : null;
    const type = select ? 'select' : COLUMN_TYPES.has(thAttrs['data-type'] ?? '') ? thAttrs['data-type'] : 'text';
    const title = th ? domText(th.children.filter((child) => child !== select)) : '';
    definition[id] = columnDefinition(id, title, type, thAttrs, select);
    columns.push({ id, type, hidden: 'data-hidden' in thAttrs });
    if (!('data-hidden' in thAttrs)) (view.columns as string[]).push(id);
    if ('data-card-target' in thAttrs) view.targetDefinition = id;
    if ('data-card-cover' in thAttrs) view.coverDefinition = id;
    if ('data-card-cover-dark' in thAttrs) view.coverDefinitionDark = id;
    const columnWidth = Number(thAttrs.width);
    if (thAttrs.width && Number.isFinite(columnWidth)) columnWidths[id] = columnWidth;
  }
  if (cards && attrs['data-card-wrap'] === 'false') view.wrap = false;
  if (!cards && Object.keys(columnWidths).length > 0) view.columnWidths = columnWidths;

  const records: Record<string, unknown> = {};
  const fragments: DocumentFragment[] = [];
  bodyRows.forEach((row, r) => {
    const recordId = `r${r + 1}`;
    const values: Record<string, unknown> = {};
    columns.forEach((column, c) => {
      const cell = row.cells[c];
      if (!cell) return;
      if (column.type === 'text') {
        const blocks = domToBlocks(cell.children);
        if (blocks.length === 0) return;
        const fragmentId = `${recordId}${column.id}`;
        values[column.id] = fragmentId;
        fragments.push(fragment(fragmentId, blocks));
        return;
      }
      const value = cellValue(column.type, cell);
      if (value !== undefined) values[column.id] = value;
    });
    records[recordId] = { orderIndex: orderIndex(r), values };
  });

  const data: Record<string, unknown> = { view, records, definition };
  for (const [attribute, field] of [['data-full-width', 'fullWidth'], ['data-search', 'search']] as const) {
    if (attrs[attribute] === 'true' || attrs[attribute] === 'false') data[field] = attrs[attribute] === 'true';
  }
  return voidBlock('table', data, fragments);
}

function columnDefinition(id: string, title: string, type: string, attrs: Record<string, string>, select: Element | null): Record<string, unknown> {
  switch (type) {
    case 'text': {
      const align = (attrs.align ?? '').toLowerCase();
      return { id, title, type, textAlignment: align === 'center' || align === 'right' ? align : 'left' };
    }
    case 'rating': {
      const max = Number(attrs['data-max']);
      return { id, title, type, max: Number.isFinite(max) && max > 0 ? max : 5 };
    }
    case 'users':
      return { id, title, type, multiple: 'data-multiple' in attrs };
    case 'select': {
      const options = (select?.children ?? [])
        .filter((child): child is Element => isTag(child) && child.name === 'option')
        .map((option) => ({ value: option.attribs.value ?? '', label: option.attribs.label ?? domText(option.children), color: option.attribs.color ?? 'default' }));
      return { id, title, type, multiple: 'data-multiple' in attrs || select?.attribs.multiple !== undefined, options };
    }
    default:
      return { id, title, type };
  }
}

function cellValue(type: string, cell: Element): unknown {
  const text = domText(cell.children);
  switch (type) {
    case 'number':
    case 'rating': {
      const number = Number(text);
      return text !== '' && Number.isFinite(number) ? number : undefined;
    }
    case 'checkbox':
      return text === 'true';
    case 'content-ref': {
      const url = links(cell.children)[0];
      return url === undefined ? undefined : { kind: 'url', url };
    }
    case 'image': {
      // The `{ref}` form: a bare URL ref would match both of the spec's record shapes for it.
      const url = links(cell.children)[0];
      return url === undefined ? undefined : { ref: { kind: 'url', url } };
    }
    case 'files':
      return links(cell.children);
    case 'select':
      return elements(cell.children, 'span').flatMap((span) => (span.attribs['data-option'] !== undefined ? [span.attribs['data-option']] : []));
    case 'users':
      return text === '' ? undefined : text.split(/\s*,\s*/);
    default:
      return text === '' ? undefined : text;
  }
}

interface Row {
  header: boolean;
  cells: Element[];
}

function tableRows(table: Element): Row[] {
  const rows: Row[] = [];
  const visit = (nodes: readonly ChildNode[], header: boolean) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (node.name === 'thead') visit(node.children, true);
      else if (node.name === 'tbody' || node.name === 'tfoot') visit(node.children, false);
      else if (node.name === 'tr') rows.push({ header, cells: node.children.filter((cell): cell is Element => isTag(cell) && (cell.name === 'td' || cell.name === 'th')) });
    }
  };
  visit(table.children, false);
  return rows;
}

/** Targets of the links (`<a href>`) and images (`<img src>`) in a cell, in order. */
function links(nodes: readonly ChildNode[]): string[] {
  const found: string[] = [];
  const visit = (list: readonly ChildNode[]) => {
    for (const node of list) {
      if (!isTag(node)) continue;
      if (node.name === 'a' && node.attribs.href) found.push(node.attribs.href);
      else if (node.name === 'img' && node.attribs.src) found.push(node.attribs.src);
      else visit(node.children);
    }
  };
  visit(nodes);
  return found;
}

function elements(nodes: readonly ChildNode[], name: string): Element[] {
  const found: Element[] = [];
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (node.name === name) found.push(node);
    else found.push(...elements(node.children, name));
  }
  return found;
}

function findElement(nodes: readonly ChildNode[], name: string): Element | null {
  return elements(nodes, name)[0] ?? null;
}
