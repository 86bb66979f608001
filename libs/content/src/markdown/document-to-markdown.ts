import type { DocumentBlock, DocumentFragment, JSONDocument, PageFrontMatter } from './document.types';
import { blocksToPlainText, inlineNodesToPlainText } from './document-to-plain-text';
import { formatFrontMatter } from './front-matter';
import { defaultHeadingAnchor } from './heading-anchors';
import { encodeHtmlAttribute } from './html-fragments';
import { escapeText, formatDestination, inlineToMarkdown, mentionLabel, refUrl, type InlineContext } from './inline-to-markdown';
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
  const body = blocksToMarkdown(doc.nodes ?? []);
  if (body) parts.push(body);
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
      return inlineToMarkdown(node.nodes ?? []);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
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
    case 'images': {
      const align = typeof node.data.align === 'string' ? node.data.align : '';
      if (!align) return imagesToMarkdown(children(node));
      return `<div align="${encodeHtmlAttribute(align)}">${imagesToMarkdown(children(node), true).replace(/\n/g, '')}</div>`;
    }
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
  const asFigures = figuresOnly || images.some((image) => caption(image) !== null || image.data.width !== undefined || image.data.height !== undefined);
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
      return `<figure><img src="${encodeHtmlAttribute(src)}" alt="${encodeHtmlAttribute(alt)}"${size}><figcaption>${captionHtml}</figcaption></figure>`;
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

interface TableData {
  view?: { columns?: string[]; hideHeader?: boolean };
  records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
  definition?: Record<string, { title?: string; textAlignment?: string }>;
}

const CELL: InlineContext = { cell: true, singleLine: true };

function tableToMarkdown(table: DocumentBlock): string {
  const data = table.data as TableData;
  const definition = data.definition ?? {};
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
