import MarkdownIt from 'markdown-it';
import type { ContentRef, DocumentBlock, DocumentInline, DocumentMark, DocumentNode, DocumentTextLeaf } from './document.types';
import { colorKey, markBit, markSetOf, type MarkSet } from './document-nodes';
import { encodeHtmlAttribute } from './html-fragments';
import { GITBOOK_BLOCK_TAGS } from './liquid-tags';

export interface InlineContext {
  /** Table cell: `|` is escaped everywhere, including code spans. */
  cell?: boolean;
  /** Content that must stay on one line (headings, cells, HTML captions): breaks become `<br>`. */
  singleLine?: boolean;
  /**
   * Inside an HTML block (`<summary>`, `<figcaption>`): marks, code and links are written as
   * HTML and special characters as character references, so HTML renderers show the same
   * thing our parser reads.
   */
  html?: boolean;
}

const utils = new MarkdownIt().utils;

const BOLD = markBit('bold');
const ITALIC = markBit('italic');
const STRIKETHROUGH = markBit('strikethrough');
const CODE = markBit('code');
const KEYBOARD = markBit('keyboard');
const SUPERSCRIPT = markBit('superscript');
const SUBSCRIPT = markBit('subscript');
const EMPHASIS_MARKS = [BOLD, ITALIC, STRIKETHROUGH, KEYBOARD, SUPERSCRIPT, SUBSCRIPT];

const DELIMITERS: Record<number, string> = { [BOLD]: '**', [ITALIC]: '*', [STRIKETHROUGH]: '~~' };
const HTML_TAGS: Record<number, string> = {
  [BOLD]: 'strong',
  [ITALIC]: 'em',
  [STRIKETHROUGH]: 's',
  [KEYBOARD]: 'kbd',
  [SUPERSCRIPT]: 'sup',
  [SUBSCRIPT]: 'sub',
};

const SPACE = 0x20;
/** Stands for the output of a neighbouring inline (`[..](..)`, `$$..$$`): always punctuation. */
const PUNCTUATION = 0x29;

/** Markdown for inline content (the nodes of a paragraph, heading, cell or link). */
export function inlineToMarkdown(nodes: ReadonlyArray<DocumentNode>, ctx: InlineContext = {}): string {
  let out = '';
  let lastOutput = -1;
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!isEmptyText(nodes[i])) {
      lastOutput = i;
      break;
    }
  }
  for (let i = 0; i <= lastOutput; i++) {
    const node = nodes[i];
    if (node.object === 'text') {
      if (isEmptyText(node)) continue;
      out += coloredTextToMarkdown(node.leaves, {
        atStart: out === '',
        atEnd: i === lastOutput,
        before: out === '' ? SPACE : PUNCTUATION,
        after: i === lastOutput ? SPACE : PUNCTUATION,
        ctx,
      });
    } else if (node.object === 'inline') {
      const written = inlineNodeToMarkdown(node, ctx);
      // A `!` right before `[label](url)` would turn the link into an image.
      if (written.startsWith('[') && out.endsWith('!') && !isEscapedAt(out, out.length - 1)) out = `${out.slice(0, -1)}\\!`;
      out += written;
    }
  }
  return out;
}

/** Whether the character at `index` is preceded by an odd number of backslashes. */
function isEscapedAt(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

function isEmptyText(node: DocumentNode): boolean {
  return node.object === 'text' && node.leaves.every((l) => l.text === '');
}

function inlineNodeToMarkdown(node: DocumentInline, ctx: InlineContext): string {
  // Table rows are split at `|` before inline parsing; `\|` survives as a literal pipe.
  const raw = (text: string) => (ctx.cell ? text.replace(/\|/g, '\\|') : text);
  const htmlImage = node.type === 'inline-image' && (node.data.refDark !== undefined || node.data.size !== undefined);
  if ((ctx.html && (node.type === 'link' || node.type === 'inline-image')) || htmlImage) {
    const href = encodeHtmlAttribute(refUrl(node.data.ref));
    if (node.type === 'link') return `<a href="${href}">${inlineToMarkdown(node.nodes ?? [], ctx)}</a>`;
    const alt = encodeHtmlAttribute(String(node.data.alt ?? ''));
    const title = typeof node.data.caption === 'string' && node.data.caption !== '' ? ` title="${encodeHtmlAttribute(node.data.caption)}"` : '';
    const size = typeof node.data.size === 'string' ? ` data-size="${encodeHtmlAttribute(node.data.size)}"` : '';
    const img = `<img src="${href}" alt="${alt}"${title}${size}>`;
    return node.data.refDark ? pictureHtml(refUrl(node.data.refDark), img) : img;
  }
  switch (node.type) {
    case 'annotation': {
      const annotated = inlineToMarkdown(node.nodes ?? [], ctx);
      const body = (node.fragments ?? []).flatMap((f) => f.nodes);
      if (ctx.html || !annotationSink || body.length === 0) return annotated;
      annotationSink.push(body);
      return `${annotated}[^${annotationSink.length}]`;
    }
    case 'button':
      return buttonHtml(node, ctx);
    case 'icon':
      return `<i class="fa-${encodeHtmlAttribute(String(node.data.icon ?? ''))}">:${escapeText(String(node.data.icon ?? ''), ctx, false, false)}:</i>`;
    case 'expression':
      return `<code class="expression">${escapeText(String(node.data.expression ?? ''), { ...ctx, singleLine: true }, false, false)}</code>`;
    case 'link':
      return `[${inlineToMarkdown(node.nodes ?? [], { ...ctx, singleLine: true })}](${raw(formatDestination(refUrl(node.data.ref)))})`;
    case 'inline-image': {
      const caption = typeof node.data.caption === 'string' && node.data.caption !== '' ? ` ${formatTitle(node.data.caption)}` : '';
      return `![${escapeText(String(node.data.alt ?? ''), ctx)}](${raw(formatDestination(refUrl(node.data.ref)) + caption)})`;
    }
    case 'mention': {
      const url = refUrl(node.data.ref);
      if (ctx.html) return `<a data-mention href="${encodeHtmlAttribute(url)}">${escapeText(mentionLabel(url), ctx)}</a>`;
      return `[${escapeText(mentionLabel(url), ctx)}](${raw(formatDestination(url))} "mention")`;
    }
    case 'inline-math':
      return `$$${raw(String(node.data.formula ?? '').trim())}$$`;
    case 'emoji': {
      const codePoint = parseInt(String(node.data.code ?? ''), 16);
      return Number.isFinite(codePoint) && codePoint > 0 && codePoint <= 0x10ffff ? escapeText(String.fromCodePoint(codePoint), ctx, false, false) : '';
    }
    default:
      return inlineToMarkdown(node.nodes ?? [], ctx);
  }
}

/** Bodies of the annotations written so far, numbered from 1 (see collectAnnotations). */
let annotationSink: DocumentBlock[][] | null = null;

/**
 * Writes a page with annotations: each becomes a footnote reference after its text, and the
 * bodies, in order, are returned for the caller to write as `[^n]:` definitions.
 */
export function collectAnnotations<T>(write: () => T): { result: T; annotations: DocumentBlock[][] } {
  const previous = annotationSink;
  const annotations: DocumentBlock[][] = [];
  annotationSink = annotations;
  try {
    return { result: write(), annotations };
  } finally {
    annotationSink = previous;
  }
}

/** An image with a dark-mode variant, as GitBook writes it. */
export function pictureHtml(darkUrl: string, img: string): string {
  return `<picture><source srcset="${encodeHtmlAttribute(darkUrl)}" media="(prefers-color-scheme: dark)">${img}</picture>`;
}

/** `<a class="button primary">` for a link, `<button type="button" data-action>` for a search or ask action. */
function buttonHtml(node: DocumentInline, ctx: InlineContext): string {
  const data = node.data as { label?: string; kind?: string; icon?: string; ref?: unknown; action?: { action?: string; query?: string } };
  const classes = `button ${data.kind === 'secondary' ? 'secondary' : 'primary'}`;
  const icon = data.icon ? ` data-icon="${encodeHtmlAttribute(data.icon)}"` : '';
  const label = escapeText(data.label ?? '', { ...ctx, singleLine: true }, false, false);
  if (data.action?.action) {
    const query = data.action.query !== undefined ? ` data-query="${encodeHtmlAttribute(data.action.query)}"` : '';
    return `<button type="button" class="${classes}" data-action="${encodeHtmlAttribute(data.action.action)}"${query}${icon}>${label}</button>`;
  }
  return `<a href="${encodeHtmlAttribute(refUrl(data.ref))}" class="${classes}"${icon}>${label}</a>`;
}

/** A file id rather than a path (`{% file %}` blocks parsed from markdown hold the path). */
const FILE_ID = /^[A-Za-z0-9]{12,}$/;

/** The raw URL a reference points at (see index.ts for how references are represented). */
export function refUrl(ref: unknown): string {
  const r = (ref ?? {}) as ContentRef & Record<string, unknown>;
  // Id refs (from a read that resolved them): the stable links the content API's writes resolve.
  if (r.kind === 'page' && typeof r.page === 'string') return `/pages/${r.page}`;
  if (r.kind === 'anchor' && typeof r.anchor === 'string') return `${typeof r.page === 'string' ? `/pages/${r.page}` : ''}#${r.anchor}`;
  if (r.kind === 'file' && typeof r.file === 'string' && FILE_ID.test(r.file)) return `/files/${r.file}`;
  for (const field of ['url', 'file', 'page', 'anchor', 'space']) {
    if (typeof r[field] === 'string') return r[field] as string;
  }
  return '';
}

/** GitBook labels a mention with the target's file (or folder) name. */
export function mentionLabel(url: string): string {
  const path = url.split(/[?#]/)[0].replace(/\/+$/, '');
  return path.slice(path.lastIndexOf('/') + 1) || url;
}

// ---------------------------------------------------------------------------------------
// Text with marks

interface TextPosition {
  atStart: boolean;
  atEnd: boolean;
  /** Character code just before / after this text in the output. */
  before: number;
  after: number;
  ctx: InlineContext;
}

interface Piece {
  out: string;
  marks: MarkSet;
}

interface MarkPair {
  mark: MarkSet;
  open: number;
  close: number;
  html: boolean;
}

/** Text whose leaves may carry colour marks: each coloured run goes into GitBook's `<mark style>`. */
function coloredTextToMarkdown(leaves: readonly DocumentTextLeaf[], position: TextPosition): string {
  if (!leaves.some((l) => l.marks.some((m) => m.type === 'color'))) return textToMarkdown(leaves, position);
  const runs: Array<{ color: DocumentMark | undefined; leaves: DocumentTextLeaf[] }> = [];
  for (const l of leaves) {
    const color = l.marks.find((m) => m.type === 'color');
    const last = runs[runs.length - 1];
    if (last && colorKey(last.color) === colorKey(color) && (last.color === undefined) === (color === undefined)) last.leaves.push(l);
    else runs.push({ color, leaves: [l] });
  }
  return runs
    .map((run, index) => {
      const first = index === 0;
      const last = index === runs.length - 1;
      if (!run.color) {
        return textToMarkdown(run.leaves, {
          ...position,
          atStart: position.atStart && first,
          atEnd: position.atEnd && last,
          before: first ? position.before : PUNCTUATION,
          after: last ? position.after : PUNCTUATION,
        });
      }
      const { text, background } = (run.color.data ?? {}) as { text?: string; background?: string };
      const style = `${text && text !== 'default' ? `color:${text};` : ''}${background && background !== 'default' ? `background-color:${background};` : ''}`;
      const inner = textToMarkdown(run.leaves, { ...position, atStart: false, atEnd: false, before: PUNCTUATION, after: PUNCTUATION });
      return `<mark style="${encodeHtmlAttribute(style)}">${inner}</mark>`;
    })
    .join('');
}

/**
 * Emphasis is written with delimiters (`**`, `*`, `~~`) only where CommonMark will read them
 * back as the same span: the flanking rules are checked against the actual neighbouring
 * characters, and two `*` runs never touch. Anything else uses the equivalent HTML tag
 * (`<strong>`), which the parser maps back to the mark.
 */
function textToMarkdown(leaves: readonly DocumentTextLeaf[], position: TextPosition): string {
  const pieces = toPieces(leaves, position);
  if (pieces.length === 0) return '';
  const pairs = pairMarks(pieces);
  pairs.forEach((pair, index) => (pair.html = position.ctx.html === true || !canUseDelimiters(index, pairs, pieces, position)));

  const opensAt: MarkPair[][] = pieces.map(() => []);
  const closesAt: MarkPair[][] = Array.from({ length: pieces.length + 1 }, () => []);
  for (const pair of pairs) {
    opensAt[pair.open].push(pair);
    closesAt[pair.close].push(pair);
  }
  let out = '';
  for (let i = 0; i <= pieces.length; i++) {
    // Innermost (latest opened) closes first; opens are already outermost first.
    for (let c = closesAt[i].length - 1; c >= 0; c--) out += closeMark(closesAt[i][c]);
    if (i === pieces.length) break;
    for (const pair of opensAt[i]) out += openMark(pair);
    out += pieces[i].out;
  }
  return out;
}

function openMark(pair: MarkPair): string {
  return pair.html ? `<${HTML_TAGS[pair.mark]}>` : DELIMITERS[pair.mark];
}

function closeMark(pair: MarkPair): string {
  return pair.html ? `</${HTML_TAGS[pair.mark]}>` : DELIMITERS[pair.mark];
}

function toPieces(leaves: readonly DocumentTextLeaf[], position: TextPosition): Piece[] {
  // Code spans cannot hold line breaks: a break inside code text is written outside the span.
  const split: Array<{ text: string; marks: MarkSet }> = [];
  for (const leaf of leaves) {
    if (leaf.text === '') continue;
    const marks = markSetOf(leaf.marks);
    if (marks & CODE && leaf.text.includes('\n')) {
      leaf.text.split(/(\n)/).forEach((part) => {
        if (part !== '') split.push({ text: part, marks: part === '\n' ? marks & ~CODE : marks });
      });
    } else split.push({ text: leaf.text, marks });
  }

  const pieces: Piece[] = [];
  let atLineStart = position.atStart;
  split.forEach((part, index) => {
    const last = index === split.length - 1 && position.atEnd;
    let out: string;
    if (!(part.marks & CODE)) out = escapeText(part.text, position.ctx, atLineStart, last);
    else if (position.ctx.html) out = `<code>${escapeText(part.text, position.ctx, false, false)}</code>`;
    else out = codeSpan(part.text, position.ctx);
    atLineStart = !(part.marks & CODE) && part.text.endsWith('\n') && !position.ctx.singleLine;
    pieces.push({ out, marks: part.marks & ~CODE });
  });
  return pieces;
}

/** Spans of each mark over consecutive pieces, properly nested (a stack of open marks). */
function pairMarks(pieces: readonly Piece[]): MarkPair[] {
  const pairs: MarkPair[] = [];
  const stack: MarkPair[] = [];
  for (let i = 0; i <= pieces.length; i++) {
    const marks = i < pieces.length ? pieces[i].marks : 0;
    let keep = 0;
    while (keep < stack.length && marks & stack[keep].mark) keep++;
    while (stack.length > keep) stack.pop()!.close = i;
    if (i === pieces.length) break;
    const open = EMPHASIS_MARKS.filter((mark) => marks & mark && !stack.some((p) => p.mark === mark));
    // Longest-running marks open first, so they are the outer ones.
    open.sort((a, b) => runLength(pieces, i, b) - runLength(pieces, i, a));
    for (const mark of open) {
      const pair: MarkPair = { mark, open: i, close: -1, html: false };
      pairs.push(pair);
      stack.push(pair);
    }
  }
  return pairs;
}

function runLength(pieces: readonly Piece[], from: number, mark: MarkSet): number {
  let end = from;
  while (end < pieces.length && pieces[end].marks & mark) end++;
  return end - from;
}

/**
 * Whether a pair can be written with delimiters. `pairs` is in opening order, so at one
 * position a lower index is an outer mark: outer marks open before and close after inner ones.
 */
function canUseDelimiters(index: number, pairs: readonly MarkPair[], pieces: readonly Piece[], position: TextPosition): boolean {
  const pair = pairs[index];
  if (!(pair.mark in DELIMITERS)) return false;
  // Bold and italic over exactly the same span are written as one `***` run.
  const isStar = (mark: MarkSet) => mark === BOLD || mark === ITALIC;
  const isPartner = (other: MarkPair) => isStar(pair.mark) && isStar(other.mark) && other.open === pair.open && other.close === pair.close;
  const others = pairs.map((other, i) => ({ other, i })).filter(({ other, i }) => i !== index && !isPartner(other));
  const touching = others.filter(({ other }) => other.open === pair.open || other.close === pair.open || other.open === pair.close || other.close === pair.close);
  // Two `*` runs side by side would merge into one run and pair up differently.
  if (isStar(pair.mark) && touching.some(({ other }) => isStar(other.mark))) return false;

  const before = (at: number) => (at === 0 ? position.before : lastChar(pieces[at - 1].out));
  const after = (at: number) => (at === pieces.length ? position.after : firstChar(pieces[at].out));
  const eventBeforeOpen = others.some(({ other, i }) => other.close === pair.open || (other.open === pair.open && i < index));
  const eventAfterOpen = others.some(({ other, i }) => other.open === pair.open && i > index);
  const eventBeforeClose = others.some(({ other, i }) => other.close === pair.close && i > index);
  const eventAfterClose = others.some(({ other, i }) => other.open === pair.close || (other.close === pair.close && i < index));
  return (
    canOpen(eventBeforeOpen ? PUNCTUATION : before(pair.open), eventAfterOpen ? PUNCTUATION : after(pair.open)) &&
    canClose(eventBeforeClose ? PUNCTUATION : before(pair.close), eventAfterClose ? PUNCTUATION : after(pair.close))
  );
}

/** markdown-it's `scanDelims` for `*` and `~` (both may split words). */
function canOpen(before: number, after: number): boolean {
  if (isWhiteSpace(after)) return false;
  return !isPunct(after) || isWhiteSpace(before) || isPunct(before);
}

function canClose(before: number, after: number): boolean {
  if (isWhiteSpace(before)) return false;
  return !isPunct(before) || isWhiteSpace(after) || isPunct(after);
}

function isWhiteSpace(code: number): boolean {
  return utils.isWhiteSpace(code);
}

function isPunct(code: number): boolean {
  return utils.isMdAsciiPunct(code) || utils.isPunctChar(String.fromCodePoint(code));
}

function firstChar(text: string): number {
  return text.codePointAt(0) ?? SPACE;
}

function lastChar(text: string): number {
  if (text === '') return SPACE;
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xdc00 && last <= 0xdfff && text.length > 1 ? (text.codePointAt(text.length - 2) ?? last) : last;
}

// ---------------------------------------------------------------------------------------
// Escaping

const ENTITY_LIKE = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/;
const ALWAYS_ESCAPED = new Set(['\\', '*', '_', '`', '[', ']', '<', '~', '|']);
const LINE_START_ESCAPED = new Set(['#', '>', '-', '+', '=']);
const NEEDS_WORK = /[\\*_`[\]<~|$&\n#>\-+={\d\s]/;

/**
 * Escapes text so markdown-it reads it back verbatim: inline syntax characters always,
 * block syntax at the start of a line (`#`, `>`, `-`, `1.`, `{% hint`), `$$`, entity-like
 * `&name;`, and the first/last whitespace of a line, which markdown-it would strip
 * (written as a character reference, as GitBook does with `&#x20;`).
 */
export function escapeText(text: string, ctx: InlineContext, atLineStart = true, atEnd = true): string {
  if (!NEEDS_WORK.test(text)) return text;
  if (ctx.html) return escapeHtmlText(text, atLineStart, atEnd);
  let out = '';
  let lineStart = atLineStart;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') {
      const isLast = atEnd && i === text.length - 1;
      if (ctx.singleLine || isLast) {
        out += '<br>';
      } else {
        out += '\\\n';
        lineStart = true;
      }
      continue;
    }
    if (lineStart) {
      lineStart = false;
      if (/\s/.test(ch)) {
        out += characterReference(ch);
        continue;
      }
      if (LINE_START_ESCAPED.has(ch) || (ch === '{' && text[i + 1] === '%' && startsKnownTag(text, i))) {
        out += ch === '{' ? '{\\' : `\\${ch}`;
        if (ch === '{') {
          out += '%';
          i++;
        }
        continue;
      }
      const ordered = /^\d{1,9}[.)]/.exec(text.slice(i, i + 11));
      if (ordered) {
        out += `${ordered[0].slice(0, -1)}\\${ordered[0].slice(-1)}`;
        i += ordered[0].length - 1;
        continue;
      }
    }
    if (atEnd && i === text.length - 1 && /\s/.test(ch)) {
      out += characterReference(ch);
      continue;
    }
    if (ALWAYS_ESCAPED.has(ch)) {
      out += `\\${ch}`;
    } else if (ch === '$' && (text[i + 1] === '$' || text[i - 1] === '$' || i === 0 || i === text.length - 1)) {
      out += '\\$';
    } else if (ch === '&' && ENTITY_LIKE.test(text.slice(i, i + 40))) {
      out += '\\&';
    } else {
      out += ch;
    }
  }
  return out;
}

const HTML_ESCAPED = /[\\*_`[\]<>~|$&\n]/g;

/** HTML-context escaping: character references, which markdown-it decodes to plain text too. */
function escapeHtmlText(text: string, atLineStart: boolean, atEnd: boolean): string {
  let out = text.replace(HTML_ESCAPED, (ch) => {
    if (ch === '\n') return '<br>';
    if (ch === '&') return '&amp;';
    if (ch === '<') return '&lt;';
    if (ch === '>') return '&gt;';
    return characterReference(ch);
  });
  if (atLineStart && /^\s/.test(out)) out = characterReference(out[0]) + out.slice(1);
  if (atEnd && /\s$/.test(out)) out = out.slice(0, -1) + characterReference(out[out.length - 1]);
  return out;
}

function startsKnownTag(text: string, at: number): boolean {
  const name = /^\{%-?\s*(?:end)?([a-zA-Z][\w-]*)/.exec(text.slice(at, at + 40));
  return name !== null && GITBOOK_BLOCK_TAGS.has(name[1].toLowerCase());
}

function characterReference(ch: string): string {
  return `&#x${(ch.codePointAt(0) ?? 32).toString(16)};`;
}

function codeSpan(text: string, ctx: InlineContext): string {
  let content = ctx.cell ? text.replace(/\|/g, '\\|') : text;
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // markdown-it strips one space from each end unless the content is only (ASCII) spaces.
  const padded = content.startsWith('`') || content.endsWith('`') || (content.startsWith(' ') && content.endsWith(' ') && !/^ +$/.test(content));
  if (padded) content = ` ${content} `;
  return `${fence}${content}${fence}`;
}

// ---------------------------------------------------------------------------------------
// Link destinations and titles

/** A link destination markdown-it reads back as exactly `url` (no percent-encoding added). */
export function formatDestination(url: string): string {
  const clean = url.replace(/\n/g, '%0A');
  const escaped = clean.replace(/\\/g, '\\\\').replace(/&(?=(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});)/g, '\\&');
  if (clean === '' || /[\s<>]/.test(clean) || !balancedParentheses(clean)) return `<${escaped.replace(/[<>]/g, '\\$&')}>`;
  return escaped;
}

export function formatTitle(title: string): string {
  return `"${title.replace(/\n/g, ' ').replace(/[\\"]/g, '\\$&').replace(/&(?=[#a-zA-Z][a-zA-Z0-9]*;)/g, '\\&')}"`;
}

function balancedParentheses(url: string): boolean {
  let depth = 0;
  for (const ch of url) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

