import type { DocumentBlock, DocumentFragment, JSONDocument, PageFrontMatter } from './document.types';
import { blocksToPlainText, inlineNodesToPlainText } from './document-to-plain-text';
import { formatFrontMatter } from './front-matter';
import { defaultHeadingAnchor } from './heading-anchors';
import { encodeHtmlAttribute } from './html-fragments';
import { collectAnnotations, escapeText, formatDestination, inlineToMarkdown, mentionLabel, pictureHtml, refUrl, type InlineContext } from './inline-to-markdown';
import { formatLiquidTag } from './liquid-tags';

export interface DocumentToMarkdownOptions {
  frontMatter?: PageFrontMatter;
  /** Page title, written as the leading `# H1` (markdownToDocument takes it out of the document). */
  title?: string;
}

/**
 * Writes a GitBook document as GitBook-flavoured markdown, in the layout GitBook's Git Sync
 * exports (`{% hint %}` blocks, `<figure>` images, `<details>` expandables). The output is
 * canonical: markdownToDocument reads it back to an equal document, and writing that again
 * gives the same text.
 */
export function documentToMarkdown(doc: JSONDocument, opts: DocumentToMarkdownOptions = {}): string {
  const parts: string[] = [];
  const frontMatter = formatFrontMatter(opts.frontMatter);
  if (frontMatter) parts.push(frontMatter);
  if (opts.title) parts.push(`# ${escapeText(opts.title, { singleLine: true })}`);
  const { result: body, annotations } = collectAnnotations(() => blocksToMarkdown(doc.nodes ?? []));
  if (body) parts.push(body);
  // Annotations are written as GitBook does: footnotes, defined at the end of the page.
  annotations.forEach((note, index) => parts.push(prefixLines(blocksToMarkdown(note), `[^${index + 1}]: `, '', '    ')));
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}

interface BlockContext {
  /** Marker of the list item this block opens (`*`, `-`, `1.`), when it is an item's first block. */
  itemMarker?: string;
  /** The blocks are the content of a list item. */
  inListItem?: boolean;
}

function blocksToMarkdown(blocks: readonly DocumentBlock[], context: BlockContext = {}): string {
  let out = '';
  let previous: DocumentBlock | null = null;
  let previousMarker = '';
  blocks.forEach((node, index) => {
    let text: string;
    let marker = '';
    if (isBulletList(node)) {
      // Adjacent lists only stay apart if their markers differ, and `* * *` (a list opening an
      // item) would read as a thematic break.
      const afterStarList = previous && isBulletList(previous) && previousMarker === '*';
      marker = afterStarList || (index === 0 && context.itemMarker === '*') ? '-' : '*';
      text = listToMarkdown(node, marker);
    } else if (node.type === 'list-ordered') {
      marker = previous?.type === 'list-ordered' && previousMarker === '.' ? ')' : '.';
      text = listToMarkdown(node, marker);
    } else {
      text = blockToMarkdown(node, index === 0 ? context : {});
    }
    if (text === '') return;
    if (out !== '') out += context.inListItem && previous?.type === 'paragraph' && canInterruptParagraph(node) ? '\n' : '\n\n';
    out += text;
    previous = node;
    previousMarker = marker;
  });
  return out;
}

function isBulletList(node: DocumentBlock): boolean {
  return node.type === 'list-unordered' || node.type === 'list-tasks';
}

/** A list written right under a paragraph line only starts a list if it may interrupt the paragraph. */
function canInterruptParagraph(list: DocumentBlock): boolean {
  if (!isBulletList(list) && list.type !== 'list-ordered') return false;
  if (list.type === 'list-ordered' && typeof list.data.start === 'number' && list.data.start !== 1) return false;
  const first = children(list)[0];
  return first !== undefined && children(first).length > 0;
}

function blockToMarkdown(node: DocumentBlock, context: BlockContext): string {
  switch (node.type) {
    case 'paragraph':
      // Documents written through the API may leave out `data`.
      if (typeof node.data?.align === 'string') return alignedToMarkdown('p', node);
      return inlineToMarkdown(node.nodes ?? []);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      if (typeof node.data?.align === 'string') return alignedToMarkdown(htmlHeadingName(node.type), node);
      return headingToMarkdown(Number(node.type.slice(-1)), node);
    case 'blockquote':
      return prefixLines(blocksToMarkdown(children(node)), '> ', '>');
    case 'divider':
      // `* ***` would be read as one thematic break rather than an item holding one.
      return context.itemMarker === '*' ? '---' : '***';
    case 'code':
      return codeToMarkdown(node);
    case 'math':
      return `$$\n${String(node.data.formula ?? '')}\n$$`;
    case 'hint':
      return liquidContainer('hint', [['style', String(node.data.style ?? 'info')]], blocksToMarkdown(children(node)));
    case 'tabs':
      return liquidContainer('tabs', [], children(node).map(tabToMarkdown).join('\n\n'));
    case 'tabs-item':
      return tabToMarkdown(node);
    case 'stepper':
      return liquidContainer('stepper', [], children(node).map(stepToMarkdown).join('\n\n'));
    case 'stepper-step':
      return stepToMarkdown(node);
    case 'columns':
      return liquidContainer('columns', [], children(node).map(columnToMarkdown).join('\n\n'));
    case 'column':
      return columnToMarkdown(node);
    case 'updates':
      return liquidContainer('updates', [['format', String(node.data.format ?? 'full')]], children(node).map(updateToMarkdown).join('\n\n'));
    case 'update':
      return updateToMarkdown(node);
    case 'if': {
      const body = blocksToMarkdown(children(node));
      const expression = String(node.data.expression ?? '').replace(/%\}/g, '% }');
      const lastLine = body.slice(body.lastIndexOf('\n') + 1);
      return `{% if ${expression} %}\n${body}${body === '' ? '' : lastLine.startsWith('<') ? '\n\n' : '\n'}{% endif %}`;
    }
    case 'swagger': {
      const url = refUrl(node.data.ref);
      const attrs: Array<[string, string]> = [['src', url], ['path', String(node.data.path ?? '')], ['method', String(node.data.method ?? '')]];
      return liquidContainer('openapi', attrs, `[${escapeText(url, {})}](${formatDestination(url)})`);
    }
    case 'openapi-operation': {
      const spec = String((node.data.ref as { spec?: unknown } | undefined)?.spec ?? '');
      const attrs: Array<[string, string]> = [['spec', spec], ['path', String(node.data.path ?? '')], ['method', String(node.data.method ?? '')]];
      return liquidContainer('openapi-operation', attrs, `OpenAPI ${escapeText(spec, {})}`);
    }
    case 'openapi-schemas': {
      const spec = String((node.data.ref as { spec?: unknown } | undefined)?.spec ?? '');
      const schemas = Array.isArray(node.data.schemas) ? node.data.schemas.map(String) : [];
      const grouped = typeof node.data.grouped === 'boolean' ? String(node.data.grouped) : undefined;
      const title = schemas.length === 1 ? `The ${schemas[0]} object` : schemas.join(', ');
      return liquidContainer('openapi-schemas', [['spec', spec], ['schemas', schemas.join(',')], ['grouped', grouped]], escapeText(title, {}));
    }
    case 'images': {
      const align = typeof node.data.align === 'string' ? ` align="${encodeHtmlAttribute(node.data.align)}"` : '';
      const fullWidth = typeof node.data.fullWidth === 'boolean' ? ` data-full-width="${node.data.fullWidth}"` : '';
      if (!align && !fullWidth) return imagesToMarkdown(children(node));
      return `<div${align}${fullWidth}>${imagesToMarkdown(children(node), true).replace(/\n/g, '')}</div>`;
    }
    case 'drawing':
      return `<img src="${encodeHtmlAttribute(refUrl(node.data.ref))}" alt="" class="gitbook-drawing">`;
    case 'image':
      return imagesToMarkdown([node]);
    case 'file':
      return formatLiquidTag('file', [['src', refUrl(node.data.ref)]]);
    case 'embed': {
      const attrs: Array<[string, string | undefined]> = [
        ['url', String(node.data.url ?? '')],
        ['fullWidth', node.data.fullWidth === true ? 'true' : undefined],
      ];
      // The caption (markdown of one paragraph, kept by the reader) goes between the tags, as GitBook writes it.
      const caption = typeof node.data.caption === 'string' ? node.data.caption.replace(/\s*\n\s*/g, ' ').trim() : '';
      return caption ? liquidContainer('embed', attrs, caption) : formatLiquidTag('embed', attrs);
    }
    case 'content-ref': {
      const url = refUrl(node.data.ref);
      return liquidContainer('content-ref', [['url', url]], `[${escapeText(mentionLabel(url), {})}](${formatDestination(url)})`);
    }
    case 'expandable':
      return expandableToMarkdown(node);
    case 'table':
      return tableToMarkdown(node);
    default:
      return unknownBlockToMarkdown(node);
  }
}

function children(node: DocumentBlock): DocumentBlock[] {
  return (node.nodes ?? []).filter((child): child is DocumentBlock => child.object === 'block');
}

const HTML_ALIGN: Record<string, string> = { start: 'left', center: 'center', end: 'right' };

/** `<p align="center">` and `<h2 align="center">`: GitBook's form for aligned text. */
function alignedToMarkdown(name: string, node: DocumentBlock): string {
  const align = HTML_ALIGN[String(node.data.align)] ?? 'left';
  return `<${name} align="${align}">${inlineToMarkdown(node.nodes ?? [], HTML_INLINE)}</${name}>`;
}

/** The HTML heading GitBook writes for a heading block (h4 for the third level, as in cards). */
function htmlHeadingName(type: string): string {
  return type === 'heading-1' ? 'h1' : type === 'heading-2' ? 'h2' : 'h4';
}

function headingToMarkdown(level: number, node: DocumentBlock): string {
  let text = inlineToMarkdown(node.nodes ?? [], { singleLine: true });
  // A trailing `#` run would be read as the optional closing sequence.
  if (text.endsWith('#')) text = `${text.slice(0, -1)}\\#`;
  // A custom anchor is written the way GitBook exports it; a generated one (the text's slug,
  // or it suffixed for a repeat) is left for the reader to generate again.
  const id = typeof node.meta?.id === 'string' ? node.meta.id : '';
  const base = defaultHeadingAnchor(node);
  if (id !== '' && id !== base && !(id.startsWith(`${base}-`) && /^\d+$/.test(id.slice(base.length + 1)))) {
    const attr = encodeHtmlAttribute(id);
    text = `${text}${text === '' ? '' : ' '}<a href="#${attr}" id="${attr}"></a>`;
  }
  return text === '' ? '#'.repeat(level) : `${'#'.repeat(level)} ${text}`;
}

function listToMarkdown(list: DocumentBlock, bulletOrDelimiter: string): string {
  const ordered = list.type === 'list-ordered';
  let number = ordered && typeof list.data.start === 'number' ? list.data.start : 1;
  return children(list)
    .map((item) => {
      const marker = ordered ? `${number++}${bulletOrDelimiter}` : bulletOrDelimiter;
      const task = list.type === 'list-tasks' ? ` [${item.data.checked === true ? 'x' : ' '}]` : '';
      const blocks = children(item);
      const content = blocksToMarkdown(blocks, { itemMarker: marker, inListItem: true });
      const padding = ' '.repeat(marker.length + 1);
      if (content === '') return `${marker}${task}`;
      // `[x]` has to stay the start of a paragraph: other first blocks go below the marker.
      if (task && blocks[0]?.type !== 'paragraph') return `${marker}${task}\n\n${prefixLines(content, padding, '')}`;
      return prefixLines(content, `${marker}${task} `, '', padding);
    })
    .join('\n');
}

/** Prefixes the first line with `first` and later lines with `rest` (blank lines get `blank`). */
function prefixLines(text: string, first: string, blank: string, rest = first): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first + line : line === '' ? blank : rest + line))
    .join('\n');
}

function liquidContainer(name: string, attrs: Array<[string, string | undefined]>, inner: string): string {
  const open = formatLiquidTag(name, attrs);
  const close = `{% end${name} %}`;
  if (inner === '') return `${open}\n${close}`;
  // An HTML block (figure, details) runs until a blank line and would swallow the end tag.
  const lastLine = inner.slice(inner.lastIndexOf('\n') + 1);
  return `${open}\n${inner}${lastLine.startsWith('<') ? '\n\n' : '\n'}${close}`;
}

function tabToMarkdown(tab: DocumentBlock): string {
  return liquidContainer('tab', [['title', String(tab.data.title ?? '')]], blocksToMarkdown(children(tab)));
}

function updateToMarkdown(update: DocumentBlock): string {
  const date = typeof update.data.date === 'string' ? update.data.date.replace(/T00:00:00(?:\.000)?Z$/, '') : '';
  const tags = Array.isArray(update.data.tags) ? update.data.tags.map((tag) => String((tag as { tag?: unknown }).tag ?? '')).filter(Boolean) : [];
  return liquidContainer('update', [['date', date], ['tags', tags.length > 0 ? tags.join(',') : undefined]], blocksToMarkdown(children(update)));
}

function stepToMarkdown(step: DocumentBlock): string {
  return liquidContainer('step', [], blocksToMarkdown(children(step)));
}

function columnToMarkdown(column: DocumentBlock): string {
  return liquidContainer(
    'column',
    [
      ['width', formatLength(column.data.width)],
      ['valign', typeof column.data.verticalAlignment === 'string' ? column.data.verticalAlignment : undefined],
    ],
    blocksToMarkdown(children(column)),
  );
}

function formatLength(length: unknown): string | undefined {
  if (typeof length === 'number') return String(length);
  if (length && typeof length === 'object' && 'value' in length) {
    const { unit, value } = length as { unit?: unknown; value?: unknown };
    return `${String(value)}${typeof unit === 'string' ? unit : ''}`;
  }
  return undefined;
}

function codeToMarkdown(code: DocumentBlock): string {
  const codeLines = children(code);
  const lines = codeLines.map((line) => inlineNodesToPlainText(line.nodes ?? []));
  const content = lines.join('\n');
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const syntax = typeof code.data.syntax === 'string' ? code.data.syntax.replace(/\s+/g, '') : '';
  const fenceChar = syntax.includes('`') ? '~' : '`';
  const fence = fenceChar.repeat(Math.max(3, fenceChar === '`' ? longest + 1 : longestRun(content, '~') + 1));
  const fenced = codeLines.some((line) => line.data.highlighted === true)
    ? preformattedCode(syntax, codeLines, lines)
    : `${fence}${syntax}\n${content}\n${fence}`;
  const data = code.data;
  const options: Array<[string, string | undefined]> = [
    ['title', typeof data.title === 'string' && data.title !== '' ? data.title : undefined],
    ['overflow', data.overflow === 'wrap' ? 'wrap' : undefined],
    ['lineNumbers', data.lineNumbers === true ? 'true' : undefined],
    ['fullWidth', data.fullWidth === true ? 'true' : undefined],
    ['expandable', data.expandable === true ? 'true' : undefined],
  ];
  if (options.every(([, value]) => value === undefined)) return fenced;
  return `${formatLiquidTag('code', options)}\n${fenced}\n{% endcode %}`;
}

/** Highlighted lines need GitBook's HTML form: `<pre><code>` with `<strong>` around those lines. */
function preformattedCode(syntax: string, codeLines: readonly DocumentBlock[], lines: readonly string[]): string {
  const body = lines
    .map((line, index) => {
      const text = `${line.replace(/[&<]/g, (ch) => (ch === '&' ? '&#x26;' : '&#x3C;'))}\n`;
      return codeLines[index].data.highlighted === true ? `<strong>${text}</strong>` : text;
    })
    .join('');
  const attrs = syntax ? [` class="language-${encodeHtmlAttribute(syntax)}"`, ` class="lang-${encodeHtmlAttribute(syntax)}"`] : ['', ''];
  return `<pre${attrs[0]}><code${attrs[1]}>${body}</code></pre>`;
}

function longestRun(text: string, ch: string): number {
  let longest = 0;
  for (const run of text.match(new RegExp(`${ch}+`, 'g')) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

const HTML_INLINE: InlineContext = { singleLine: true, html: true };

function imagesToMarkdown(images: readonly DocumentBlock[], figuresOnly = false): string {
  const asFigures =
    figuresOnly || images.some((image) => caption(image) !== null || image.data.width !== undefined || image.data.height !== undefined || image.data.refDark !== undefined);
  return images
    .map((image) => {
      const src = refUrl(image.data.ref);
      const alt = typeof image.data.alt === 'string' ? image.data.alt : '';
      if (!asFigures) return `![${escapeText(alt, {})}](${formatDestination(src)})`;
      const width = formatLength(image.data.width);
      const height = formatLength(image.data.height);
      const size = `${width ? ` width="${encodeHtmlAttribute(width)}"` : ''}${height ? ` height="${encodeHtmlAttribute(height)}"` : ''}`;
      const captionParagraphs = caption(image) ?? [];
      const captionHtml = captionParagraphs.map((p) => `<p>${htmlSafeInline(p)}</p>`).join('');
      const img = `<img src="${encodeHtmlAttribute(src)}" alt="${encodeHtmlAttribute(alt)}"${size}>`;
      return `<figure>${image.data.refDark ? pictureHtml(refUrl(image.data.refDark), img) : img}<figcaption>${captionHtml}</figcaption></figure>`;
    })
    .join('\n');
}

function caption(image: DocumentBlock): DocumentBlock[] | null {
  const found = image.fragments?.find((f) => f.fragment === 'caption');
  return found && found.nodes.length > 0 ? found.nodes : null;
}

/** Inline content inside an HTML block (`<summary>`, `<figcaption>`), written as HTML. */
function htmlSafeInline(node: DocumentBlock): string {
  return inlineToMarkdown(node.nodes ?? [], HTML_INLINE);
}

function expandableToMarkdown(node: DocumentBlock): string {
  const title = fragmentNodes(node.fragments, 'expandable-title')[0];
  const body = blocksToMarkdown(fragmentNodes(node.fragments, 'expandable-body'));
  const open = node.data.defaultExpanded === true ? '<details open>' : '<details>';
  const summary = `<summary>${title ? htmlSafeInline(title) : ''}</summary>`;
  return [open, summary, body, '</details>'].filter((part) => part !== '').join('\n\n');
}

function fragmentNodes(fragments: DocumentFragment[] | undefined, name: string): DocumentBlock[] {
  return fragments?.find((f) => f.fragment === name)?.nodes ?? [];
}

// ---------------------------------------------------------------------------------------
// Tables

interface TableView {
  type?: string;
  columns?: string[];
  hideHeader?: boolean;
  cardSize?: string;
  targetDefinition?: string;
  coverDefinition?: string;
  coverDefinitionDark?: string;
  wrap?: boolean;
  columnWidths?: Record<string, number>;
}

interface ColumnDefinition {
  title?: string;
  type?: string;
  textAlignment?: string;
  multiple?: boolean;
  max?: number;
  options?: Array<{ value?: string; label?: string; color?: string }>;
}

interface TableData {
  view?: TableView;
  records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
  definition?: Record<string, ColumnDefinition>;
  fullWidth?: boolean;
  search?: boolean;
}

const CELL: InlineContext = { cell: true, singleLine: true };

function tableToMarkdown(table: DocumentBlock): string {
  const data = table.data as TableData;
  const definition = data.definition ?? {};
  if (needsHtmlTable(table)) return htmlTableToMarkdown(table);
  const columns = data.view?.columns?.length ? data.view.columns : Object.keys(definition);
  if (columns.length === 0) return '';
  const hideHeader = data.view?.hideHeader === true;
  const header = columns.map((id) => (hideHeader ? '' : escapeText(definition[id]?.title ?? '', CELL)));
  const delimiter = columns.map((id) => {
    const alignment = definition[id]?.textAlignment;
    return alignment === 'center' ? ':-:' : alignment === 'right' ? '--:' : '---';
  });
  const fragments = new Map((table.fragments ?? []).map((f) => [f.fragment, f]));
  const records = Object.values(data.records ?? {}).sort((a, b) => compareStrings(a.orderIndex ?? '', b.orderIndex ?? ''));
  const rows = records.map((record) => columns.map((id) => cellToMarkdown(record.values?.[id], fragments)));
  return [header, delimiter, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function cellToMarkdown(value: unknown, fragments: Map<string | undefined, DocumentFragment>): string {
  if (value === undefined || value === null) return '';
  const cellFragment = typeof value === 'string' ? fragments.get(value) : undefined;
  if (!cellFragment) {
    if (typeof value === 'object' && !Array.isArray(value)) return escapeText(refUrl(value), CELL);
    return escapeText(Array.isArray(value) ? value.join(', ') : String(value), CELL);
  }
  const blocks = cellFragment.nodes;
  if (blocks.length === 1 && blocks[0].type === 'paragraph') return inlineToMarkdown(blocks[0].nodes ?? [], CELL);
  return blocks.map(cellBlockToMarkdown).join('');
}

/** GitBook's in-cell HTML: `<p>` per paragraph, `<ul>/<ol>` with `<li>` for lists. */
function cellBlockToMarkdown(node: DocumentBlock): string {
  if (node.type === 'list-unordered' || node.type === 'list-ordered' || node.type === 'list-tasks') {
    const tag = node.type === 'list-ordered' ? 'ol' : 'ul';
    const items = children(node).map((item) => {
      const content = children(item);
      const inner = content.length === 1 && content[0].type === 'paragraph' ? inlineToMarkdown(content[0].nodes ?? [], CELL) : content.map(cellBlockToMarkdown).join('');
      return `<li>${inner}</li>`;
    });
    return `<${tag}>${items.join('')}</${tag}>`;
  }
  const inline = node.type === 'paragraph' || node.type.startsWith('heading-') ? inlineToMarkdown(node.nodes ?? [], CELL) : escapeText(blocksToPlainText([node]), CELL);
  return `<p>${inline}</p>`;
}

/**
 * GitBook writes a table as HTML when a markdown table cannot hold it: cards, typed or hidden
 * columns, widths, options, a hidden header with titles, or cells with more than paragraphs
 * and lists.
 */
function needsHtmlTable(table: DocumentBlock): boolean {
  const data = table.data as TableData;
  const definition = data.definition ?? {};
  const view = data.view ?? {};
  if (view.type === 'cards' || view.columnWidths || data.fullWidth !== undefined || data.search !== undefined) return true;
  const ids = Object.keys(definition);
  if (ids.some((id) => definition[id]?.type !== 'text') || (view.columns && ids.some((id) => !view.columns!.includes(id)))) return true;
  if (view.hideHeader === true && ids.some((id) => (definition[id]?.title ?? '') !== '')) return true;
  if (view.hideHeader !== true && ids.length > 0 && ids.every((id) => (definition[id]?.title ?? '') === '')) return true;
  const simple = new Set(['paragraph', 'list-unordered', 'list-ordered', 'list-tasks']);
  return (table.fragments ?? []).some((f) => f.nodes.some((node) => !simple.has(node.type)));
}

function htmlTableToMarkdown(table: DocumentBlock): string {
  const data = table.data as TableData;
  const definition = data.definition ?? {};
  const view = data.view ?? {};
  const visible = view.columns ?? Object.keys(definition);
  const ids = [...visible, ...Object.keys(definition).filter((id) => !visible.includes(id))];
  const attrs: string[] = [];
  if (view.type === 'cards') {
    if (view.cardSize === 'large') attrs.push('data-card-size="large"');
    if (view.wrap === false) attrs.push('data-card-wrap="false"');
    attrs.push('data-view="cards"');
  } else if (view.hideHeader === true) attrs.push('data-header-hidden');
  if (typeof data.fullWidth === 'boolean') attrs.push(`data-full-width="${data.fullWidth}"`);
  if (typeof data.search === 'boolean') attrs.push(`data-search="${data.search}"`);

  const header = ids.map((id) => {
    const column = definition[id] ?? {};
    const th: string[] = [];
    const width = view.columnWidths?.[id];
    if (typeof width === 'number') th.push(`width="${width}"`);
    if (column.type === 'text' && (column.textAlignment === 'center' || column.textAlignment === 'right')) th.push(`align="${column.textAlignment}"`);
    if (!visible.includes(id)) th.push('data-hidden');
    if (view.targetDefinition === id) th.push('data-card-target');
    if (view.coverDefinition === id) th.push('data-card-cover');
    if (view.coverDefinitionDark === id) th.push('data-card-cover-dark');
    if (column.type && column.type !== 'text' && column.type !== 'select') th.push(`data-type="${encodeHtmlAttribute(column.type)}"`);
    if (column.type === 'rating' && typeof column.max === 'number') th.push(`data-max="${column.max}"`);
    if ((column.type === 'select' || column.type === 'users') && column.multiple === true) th.push('data-multiple');
    const options =
      column.type === 'select'
        ? `<select>${(column.options ?? [])
            .map((o) => `<option value="${encodeHtmlAttribute(o.value ?? '')}" label="${encodeHtmlAttribute(o.label ?? '')}" color="${encodeHtmlAttribute(o.color ?? 'default')}"></option>`)
            .join('')}</select>`
        : '';
    return `<th${th.map((a) => ` ${a}`).join('')}>${escapeText(column.title ?? '', HTML_INLINE)}${options}</th>`;
  });
  const fragments = new Map((table.fragments ?? []).map((f) => [f.fragment, f]));
  const records = Object.values(data.records ?? {}).sort((a, b) => compareStrings(a.orderIndex ?? '', b.orderIndex ?? ''));
  const rows = records.map((record) => `<tr>${ids.map((id) => `<td>${htmlCell(definition[id] ?? {}, record.values?.[id], fragments)}</td>`).join('')}</tr>`);
  return `<table${attrs.map((a) => ` ${a}`).join('')}><thead><tr>${header.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function htmlCell(column: ColumnDefinition, value: unknown, fragments: Map<string | undefined, DocumentFragment>): string {
  if (value === undefined || value === null) return '';
  const link = (url: string) => `<a href="${encodeHtmlAttribute(url)}">${escapeText(mentionLabel(url), HTML_INLINE)}</a>`;
  switch (column.type) {
    case 'content-ref':
    case 'image':
      return link(refUrl(typeof value === 'object' && value !== null && 'ref' in value ? (value as { ref: unknown }).ref : value));
    case 'files':
      // A files column holds file ids once read (or paths as imported): an id is written as `/files/<id>`.
      return (Array.isArray(value) ? value : [value]).map((file) => link(refUrl({ kind: 'file', file: String(file) }))).join('');
    case 'select':
      return (Array.isArray(value) ? value : [value])
        .map((option) => {
          const label = column.options?.find((o) => o.value === option)?.label ?? String(option);
          return `<span data-option="${encodeHtmlAttribute(String(option))}">${escapeText(label, HTML_INLINE)}</span>`;
        })
        .join('');
    case 'users':
      return escapeText(Array.isArray(value) ? value.join(', ') : String(value), HTML_INLINE);
    case 'text':
    case undefined: {
      const cellFragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (!cellFragment) return escapeText(String(value), HTML_INLINE);
      const blocks = cellFragment.nodes;
      if (blocks.length === 1 && blocks[0].type === 'paragraph' && blocks[0].data?.align === undefined) return htmlSafeInline(blocks[0]);
      return blocks.map(htmlCellBlock).join('');
    }
    default:
      return escapeText(String(value), HTML_INLINE);
  }
}

/** A block of a rich cell in an HTML table. */
function htmlCellBlock(node: DocumentBlock): string {
  if (node.type === 'list-unordered' || node.type === 'list-ordered' || node.type === 'list-tasks') {
    const tag = node.type === 'list-ordered' ? 'ol' : 'ul';
    const items = children(node).map((item) => {
      const content = children(item);
      const inner = content.length === 1 && content[0].type === 'paragraph' ? htmlSafeInline(content[0]) : content.map(htmlCellBlock).join('');
      return `<li>${inner}</li>`;
    });
    return `<${tag}>${items.join('')}</${tag}>`;
  }
  if (node.type.startsWith('heading-')) {
    const name = htmlHeadingName(node.type);
    const align = typeof node.data?.align === 'string' ? ` align="${HTML_ALIGN[node.data.align] ?? 'left'}"` : '';
    return `<${name}${align}>${htmlSafeInline(node)}</${name}>`;
  }
  if (node.type === 'paragraph') {
    const align = typeof node.data?.align === 'string' ? ` align="${HTML_ALIGN[node.data.align] ?? 'left'}"` : '';
    return `<p${align}>${htmlSafeInline(node)}</p>`;
  }
  if (node.type === 'images' || node.type === 'image') return blockToMarkdown(node, {}).replace(/\n/g, '');
  return `<p>${escapeText(blocksToPlainText([node]), HTML_INLINE)}</p>`;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Blocks without a markdown form (drawings, integrations, ...) keep at least their text. */
function unknownBlockToMarkdown(node: DocumentBlock): string {
  const nested = children(node);
  if (nested.length > 0) return blocksToMarkdown(nested);
  const fromFragments = (node.fragments ?? []).flatMap((f) => f.nodes);
  if (fromFragments.length > 0) return blocksToMarkdown(fromFragments);
  return '';
}
