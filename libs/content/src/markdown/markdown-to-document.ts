import { apiMethodBlocks, type ApiMethod } from './api-method-blocks';
import { assignKeys } from './block-keys';
import type { DocumentBlock, JSONDocument, ParsedPageMarkdown } from './document.types';
import { block, fragment, paragraph, textNode, textParagraph, voidBlock } from './document-nodes';
import { inlineNodesToPlainText } from './document-to-plain-text';
import { fitDocumentNodes } from './fit-schema-nesting';
import { parseFrontMatter } from './front-matter';
import { GITBOOK_TAG_TOKEN } from './gitbook-blocks';
import { assignHeadingAnchors } from './heading-anchors';
import { parseHtmlTag } from './html-fragments';
import { headingType, htmlToBlocks, imageBlock, imageFromAttributes, imagesBlock, parseLength } from './html-to-document';
import { inlineTokensToPlainText, inlineTokensToSegments, joinSegments, withAnnotationBodies, type InlineNodes } from './inline-to-document';
import type { LiquidTag } from './liquid-tags';
import { MATH_BLOCK_TOKEN } from './math-syntax';
import { parseInlineMarkdownTokens, parseMarkdownTokens, type MarkdownToken } from './parse-markdown';
import { tableToDocument, type TokenNode } from './table-to-document';
import type { TaskItemMeta, TaskListMeta } from './task-lists';

/**
 * Converts a GitBook-flavoured markdown page into its front matter, title and GitBook
 * document. Never throws: content the converter does not understand (unknown HTML, unknown
 * or unbalanced `{% %}` tags) is kept as literal text, and the result always obeys the
 * `JSONDocument` schema (see fit-schema-nesting for how markdown nesting is adapted).
 * `keys: false` leaves every node's `key` empty, for callers that keep only the text and
 * structure (the search index's sections): nothing but a served document reads keys, and they
 * are about a tenth of the conversion's cost.
 */
export function markdownToDocument(markdown: string, opts: { keys?: boolean } = {}): ParsedPageMarkdown {
  const source = typeof markdown === 'string' ? markdown : String(markdown ?? '');
  const { data: frontMatter, body } = parseFrontMatter(source);
  const parsed: ParsedPageMarkdown = { frontMatter, document: emptyDocument() };
  if (typeof frontMatter.description === 'string') parsed.description = frontMatter.description;

  let nodes: DocumentBlock[];
  try {
    nodes = fitDocumentNodes(markdownToBlocks(body));
  } catch {
    // A converter bug must not make a page unreadable: fall back to its text.
    nodes = body.split(/\n{2,}/).filter((chunk) => chunk.trim() !== '').map(textParagraph);
  }
  if (nodes[0]?.type === 'heading-1') {
    parsed.title = inlineNodesToPlainText(nodes[0].nodes ?? []);
    nodes = nodes.slice(1);
  }
  assignHeadingAnchors(nodes);
  parsed.document.nodes = nodes;
  if (opts.keys !== false) assignKeys(parsed.document);
  return parsed;
}

function emptyDocument(): JSONDocument {
  return { object: 'document', data: {}, nodes: [] };
}

/** Blocks of a markdown body, before the schema's nesting rules are applied. */
function markdownToBlocks(body: string): DocumentBlock[] {
  const tree = buildTokenTree(parseMarkdownTokens(body));
  const notes = tree.length > 0 && tree[tree.length - 1].token.type === 'footnote_block_open' ? tree.pop()! : null;
  if (!notes) return convertSiblings(tree, null);
  // Footnotes are GitBook's annotations: their bodies are converted first, for the references to take.
  const bodies = new Map<number, DocumentBlock[]>();
  for (const note of notes.children) {
    if (note.token.type !== 'footnote_open') continue;
    const id = (note.token.meta as { id: number }).id;
    bodies.set(id, fitDocumentNodes(convertSiblings(note.children, null)).filter((b) => ANNOTATION_BLOCKS.has(b.type)));
  }
  return withAnnotationBodies(bodies, () => convertSiblings(tree, null));
}

/** What an annotation may hold (`DocumentBlocksEssentials` and code). */
const ANNOTATION_BLOCKS = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'code']);

function buildTokenTree(tokens: readonly MarkdownToken[]): TokenNode[] {
  const root: TokenNode[] = [];
  const stack: TokenNode[][] = [root];
  for (const token of tokens) {
    const siblings = stack[stack.length - 1];
    if (token.nesting === 1) {
      const node: TokenNode = { token, children: [] };
      siblings.push(node);
      stack.push(node.children);
    } else if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else {
      siblings.push({ token, children: [] });
    }
  }
  return root;
}

// ---------------------------------------------------------------------------------------
// Containers written as separate open/close markers: `{% tag %}..{% endtag %}` and
// `<details>..</details>`. They are paired among siblings of the token tree.

type Opener =
  | { kind: 'root' }
  | { kind: 'tag'; tag: LiquidTag }
  | { kind: 'details'; raw: string; open: boolean; summary: string | null; leadingMarkdown: string };

interface Container {
  opener: Opener;
  children: Item[];
  closed: boolean;
  /** Source of the end tag, kept in case the pair turns out to be literal text. */
  closingRaw?: string;
}

type Item = TokenNode | Container;

/** Tags that also exist without an end tag (`{% embed url=".." %}` on its own). */
const END_OPTIONAL = new Set(['embed', 'file', 'content-ref', 'openapi', 'openapi-operation', 'openapi-schemas', 'swagger']);

function isContainer(item: Item): item is Container {
  return (item as Container).opener !== undefined;
}

function groupContainers(nodes: readonly TokenNode[]): readonly Item[] {
  if (!nodes.some((node) => node.token.type === GITBOOK_TAG_TOKEN || node.token.type === 'html_block')) return nodes;
  const root: Container = { opener: { kind: 'root' }, children: [], closed: true };
  const stack: Container[] = [root];
  const top = () => stack[stack.length - 1];
  const closeInnermost = (matches: (opener: Opener) => boolean, closingRaw: string): boolean => {
    for (let i = stack.length - 1; i > 0; i--) {
      if (!matches(stack[i].opener)) continue;
      stack[i].closed = true;
      stack[i].closingRaw = closingRaw;
      stack.length = i;
      return true;
    }
    return false;
  };

  for (const node of nodes) {
    const token = node.token;
    if (token.type === GITBOOK_TAG_TOKEN) {
      const tag = token.meta as unknown as LiquidTag;
      if (!tag.isEnd) {
        const container: Container = { opener: { kind: 'tag', tag }, children: [], closed: false };
        top().children.push(container);
        stack.push(container);
      } else if (!closeInnermost((o) => o.kind === 'tag' && o.tag.name === tag.name, tag.raw)) {
        top().children.push(node);
      }
      continue;
    }
    if (token.type === 'html_block') {
      const html = classifyDetailsHtml(token.content);
      if (html?.kind === 'open') {
        const container: Container = { opener: html.opener, children: [], closed: false };
        top().children.push(container);
        stack.push(container);
        continue;
      }
      if (html?.kind === 'close' && closeInnermost((o) => o.kind === 'details', token.content.trim())) continue;
      const current = top();
      if (html?.kind === 'summary' && current.opener.kind === 'details' && current.opener.summary === null && current.children.length === 0) {
        current.opener.summary = html.summary;
        continue;
      }
    }
    top().children.push(node);
  }
  return root.children;
}

const DETAILS_OPEN = /^<details(\s[^>]*)?>/i;
const SUMMARY = /^<summary(?:\s[^>]*)?>([\s\S]*?)<\/summary>/i;

type DetailsHtml = { kind: 'open'; opener: Opener } | { kind: 'close' } | { kind: 'summary'; summary: string };

function classifyDetailsHtml(content: string): DetailsHtml | null {
  const html = content.trim();
  if (/^<\/details>$/i.test(html)) return { kind: 'close' };
  const summary = SUMMARY.exec(html);
  if (summary && summary[0].length === html.length) return { kind: 'summary', summary: summary[1] };
  const open = DETAILS_OPEN.exec(html);
  if (!open || /<\/details>$/i.test(html)) return null;
  let rest = html.slice(open[0].length).trimStart();
  let summaryText: string | null = null;
  const leadingSummary = SUMMARY.exec(rest);
  if (leadingSummary) {
    summaryText = leadingSummary[1];
    rest = rest.slice(leadingSummary[0].length);
  }
  return {
    kind: 'open',
    opener: { kind: 'details', raw: content.replace(/\n+$/, ''), open: /\bopen\b/i.test(open[1] ?? ''), summary: summaryText, leadingMarkdown: rest.trim() },
  };
}

// ---------------------------------------------------------------------------------------
// Conversion

function convertSiblings(nodes: readonly TokenNode[], parentTag: string | null): DocumentBlock[] {
  return convertItems(groupContainers(nodes), parentTag);
}

function convertItems(items: readonly Item[], parentTag: string | null): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  for (const item of items) {
    const blocks = isContainer(item) ? convertContainer(item, parentTag) : convertNode(item);
    for (const b of blocks) out.push(b);
  }
  return out;
}

function convertNode(node: TokenNode): DocumentBlock[] {
  const token = node.token;
  switch (token.type) {
    case 'paragraph_open':
      return convertParagraph(node.children[0]?.token);
    case 'heading_open': {
      const { tokens, id } = customAnchor(node.children[0]?.token.children ?? []);
      const heading = headingBlock(Number(token.tag.slice(1)) || 1, joinSegments(inlineTokensToSegments(tokens)));
      if (id) heading.meta = { id };
      return [heading];
    }
    case 'bullet_list_open': {
      const tasks = (token.meta as TaskListMeta | null)?.taskList === true;
      return [block(tasks ? 'list-tasks' : 'list-unordered', {}, listItems(node, tasks))];
    }
    case 'ordered_list_open': {
      const start = Number(token.attrGet('start') ?? 1);
      return [block('list-ordered', Number.isFinite(start) && start !== 1 ? { start } : {}, listItems(node, false))];
    }
    case 'blockquote_open':
      return [block('blockquote', {}, convertSiblings(node.children, null))];
    case 'fence':
      return [codeBlock(token.content, token.info.trim().split(/\s+/)[0])];
    case 'code_block':
      return [codeBlock(token.content, '')];
    case 'hr':
      return [voidBlock('divider', {})];
    case 'table_open':
      return [tableToDocument(node)];
    case MATH_BLOCK_TOKEN:
      return [voidBlock('math', { formula: token.content })];
    case 'html_block':
      return convertHtmlBlock(token.content);
    default:
      return token.content.trim() === '' ? [] : [textParagraph(token.content.replace(/\n+$/, ''))];
  }
}

function convertContainer(item: Container, parentTag: string | null): DocumentBlock[] {
  const opener = item.opener;
  if (opener.kind === 'root') return convertItems(item.children, parentTag);
  if (opener.kind === 'details') return convertDetails(item, opener, parentTag);
  const { tag } = opener;
  const literal = (): DocumentBlock[] => [
    textParagraph(tag.raw),
    ...convertItems(item.children, parentTag),
    ...(item.closingRaw ? [textParagraph(item.closingRaw)] : []),
  ];
  if (!item.closed && !END_OPTIONAL.has(tag.name)) return literal();
  const inner = (): DocumentBlock[] => convertItems(item.children, tag.name);

  switch (tag.name) {
    case 'hint':
      return [block('hint', { style: hintStyle(tag.attrs.style) }, inner())];
    case 'tabs':
      return [block('tabs', {}, inner())];
    case 'tab':
      return wrapUnless(parentTag, 'tabs', block('tabs-item', { title: tag.attrs.title ?? '' }, inner()));
    case 'stepper':
      return [block('stepper', {}, inner())];
    case 'step':
      return wrapUnless(parentTag, 'stepper', block('stepper-step', {}, inner()));
    case 'columns':
      return [block('columns', {}, inner())];
    case 'column':
      return wrapUnless(parentTag, 'columns', block('column', columnData(tag.attrs), inner()));
    case 'updates':
      return [block('updates', { format: updatesFormat(tag.attrs.format) }, inner())];
    case 'update':
      return wrapUnless(parentTag, 'updates', block('update', updateData(tag.attrs), inner()), { format: 'full' });
    case 'if':
      return [block('if', { expression: tag.attrs.expression }, inner())];
    case 'swagger':
    case 'openapi':
    case 'openapi-operation':
    case 'openapi-schemas': {
      // `{% swagger src path method %}` is the older spelling of `{% openapi %}`; without `src`, the retired API method block.
      if (tag.name === 'swagger' && !tag.attrs.src) return (item.closed && apiMethodBlocks(apiMethod(tag, item.children))) || literal();
      const api = openApiBlock(tag);
      if (!api) return literal();
      // Between the tags GitBook writes a label generated from the attributes; without an end tag, what follows is content.
      return [api, ...(item.closed ? [] : convertItems(item.children, parentTag))];
    }
    case 'code':
      return applyCodeOptions(tag, convertItems(item.children, parentTag)) ?? literal();
    case 'content-ref': {
      if (!tag.attrs.url) return literal();
      const rest = convertItems(item.children, parentTag);
      // The link GitBook writes inside the tag is generated from the target; anything else is kept.
      const extra = rest.length === 1 && isSingleLinkParagraph(rest[0]) ? [] : rest;
      return [voidBlock('content-ref', { ref: { kind: 'url', url: tag.attrs.url } }), ...extra];
    }
    case 'embed': {
      if (!tag.attrs.url) return literal();
      // `{% embed url %}caption{% endembed %}`: one paragraph of caption stays with the embed.
      const only = item.closed && item.children.length === 1 ? item.children[0] : undefined;
      const caption = only && !isContainer(only) && only.token.type === 'paragraph_open' ? only.children[0]?.token.content.trim() : undefined;
      if (caption) return [voidBlock('embed', { ...embedData(tag.attrs), caption })];
      return [voidBlock('embed', embedData(tag.attrs)), ...convertItems(item.children, parentTag)];
    }
    case 'file':
      if (!tag.attrs.src) return literal();
      return [voidBlock('file', { ref: { kind: 'file', file: tag.attrs.src } }), ...convertItems(item.children, parentTag)];
    default:
      return literal();
  }
}

function wrapUnless(parentTag: string | null, wrapperTag: string, item: DocumentBlock, wrapperData: Record<string, unknown> = {}): DocumentBlock[] {
  return parentTag === wrapperTag ? [item] : [block(wrapperTag, wrapperData, [item])];
}

/** `{% openapi src path method %}` (a spec by URL), `{% openapi-operation spec path method %}`, `{% openapi-schemas spec schemas %}`. */
function openApiBlock(tag: LiquidTag): DocumentBlock | null {
  const { src, spec, path, method, schemas, grouped } = tag.attrs;
  if (tag.name === 'openapi' || tag.name === 'swagger') return src && path && method ? voidBlock('swagger', { ref: { kind: 'url', url: src }, path, method }) : null;
  if (!spec) return null;
  if (tag.name === 'openapi-operation') return path && method ? voidBlock('openapi-operation', { ref: { kind: 'openapi', spec }, path, method }) : null;
  const names = (schemas ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) return null;
  const data: Record<string, unknown> = { ref: { kind: 'openapi', spec }, schemas: names };
  if (grouped === 'true' || grouped === 'false') data.grouped = grouped === 'true';
  return voidBlock('openapi-schemas', data);
}

const API_METHOD_PARTS = new Set(['swagger-description', 'swagger-parameter', 'swagger-response']);

/** The parts of an API method block: its nested `swagger-*` tags; any other content joins the description. */
function apiMethod(tag: LiquidTag, children: readonly Item[]): ApiMethod {
  const method: ApiMethod = { attrs: tag.attrs, description: [], parameters: [], responses: [] };
  for (const child of children) {
    const opener = isContainer(child) && child.closed ? child.opener : null;
    const part = opener?.kind === 'tag' && API_METHOD_PARTS.has(opener.tag.name) ? opener.tag : null;
    const blocks = part ? convertItems(child.children, null) : convertItems([child], null);
    if (part?.name === 'swagger-description') method.description.push(...blocks);
    else if (part?.name === 'swagger-parameter') method.parameters.push({ attrs: part.attrs, description: blocks });
    else if (part?.name === 'swagger-response') method.responses.push({ attrs: part.attrs, body: blocks });
    else method.description.push(...blocks);
  }
  return method;
}

const UPDATES_FORMATS = new Set(['numeric', 'full', 'short']);

function updatesFormat(format: string | undefined): string {
  return format && UPDATES_FORMATS.has(format) ? format : 'full';
}

/** `{% update date="2024-12-17" tags="beta,api" %}`: the date as a timestamp (the schema's `date-time`), tags by slug. */
function updateData(attrs: Record<string, string>): Record<string, unknown> {
  const date = attrs.date ?? '';
  const timestamp = /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00.000Z` : date;
  const data: Record<string, unknown> = { date: Number.isNaN(Date.parse(timestamp)) ? new Date(0).toISOString() : timestamp };
  const tags = (attrs.tags ?? '').split(',').map((tag) => tag.trim()).filter(Boolean);
  if (tags.length > 0) data.tags = tags.map((tag) => ({ kind: 'tag', tag }));
  return data;
}

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

function hintStyle(style: string | undefined): string {
  return style && HINT_STYLES.has(style) ? style : 'info';
}

function embedData(attrs: Record<string, string>): Record<string, unknown> {
  return attrs.fullWidth === 'true' ? { url: attrs.url, fullWidth: true } : { url: attrs.url };
}

function columnData(attrs: Record<string, string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const width = parseLength(attrs.width);
  if (width !== undefined) data.width = width;
  if (attrs.valign === 'top' || attrs.valign === 'middle' || attrs.valign === 'bottom') data.verticalAlignment = attrs.valign;
  return data;
}

/** `{% code %}` options go onto the code blocks it wraps; without one, the tag stays literal. */
function applyCodeOptions(tag: LiquidTag, blocks: DocumentBlock[]): DocumentBlock[] | null {
  if (!blocks.some((b) => b.type === 'code')) return null;
  const options: Record<string, unknown> = {};
  if (tag.attrs.title) options.title = tag.attrs.title;
  if (tag.attrs.overflow === 'wrap' || tag.attrs.overflow === 'scroll') options.overflow = tag.attrs.overflow;
  if (tag.attrs.lineNumbers === 'true') options.lineNumbers = true;
  if (tag.attrs.fullWidth === 'true') options.fullWidth = true;
  if (tag.attrs.expandable === 'true') options.expandable = true;
  return blocks.map((b) => (b.type === 'code' ? { ...b, data: { ...b.data, ...options } } : b));
}

function isSingleLinkParagraph(candidate: DocumentBlock): boolean {
  if (candidate.type !== 'paragraph') return false;
  const meaningful = (candidate.nodes ?? []).filter((n) => n.object !== 'text' || n.leaves.some((l) => l.text.trim() !== ''));
  return meaningful.length === 1 && meaningful[0].object === 'inline' && meaningful[0].type === 'link';
}

function convertDetails(item: Container, opener: Extract<Opener, { kind: 'details' }>, parentTag: string | null): DocumentBlock[] {
  if (!item.closed) return [textParagraph(opener.raw), ...convertItems(item.children, parentTag)];
  const leading = opener.leadingMarkdown ? markdownToBlocks(opener.leadingMarkdown) : [];
  return [expandableBlock(opener.summary ?? '', [...leading, ...convertItems(item.children, null)], opener.open)];
}

function expandableBlock(summaryMarkdown: string, body: DocumentBlock[], open: boolean): DocumentBlock {
  const title = joinSegments(inlineTokensToSegments(parseInlineMarkdownTokens(summaryMarkdown.trim())));
  return voidBlock('expandable', open ? { defaultExpanded: true } : {}, [
    fragment('expandable-title', [paragraph(title)], true),
    fragment('expandable-body', body, true),
  ]);
}

function listItems(list: TokenNode, tasks: boolean): DocumentBlock[] {
  return list.children
    .filter((child) => child.token.type === 'list_item_open')
    .map((item) => {
      const data = tasks ? { checked: (item.token.meta as TaskItemMeta | null)?.checked === true } : {};
      return block('list-item', data, convertSiblings(item.children, null));
    });
}

const ANCHOR_OPEN = /^<a\s+(?:href\s*=\s*"#([^"]*)"\s+)?id\s*=\s*"([^"]+)"\s*>$/i;

/**
 * A custom heading anchor as GitBook exports it, `## Title <a href="#id" id="id"></a>`: the id,
 * and the heading's inline tokens without it.
 */
function customAnchor(tokens: MarkdownToken[]): { tokens: MarkdownToken[]; id?: string } {
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].type !== 'html_inline' || tokens[i + 1].type !== 'html_inline' || !/^<\/a\s*>$/i.test(tokens[i + 1].content)) continue;
    const m = ANCHOR_OPEN.exec(tokens[i].content);
    if (!m || (m[1] !== undefined && m[1] !== m[2])) continue;
    const rest = [...tokens.slice(0, i), ...tokens.slice(i + 2)];
    const last = rest[rest.length - 1];
    if (last?.type === 'text' && i === rest.length) rest[rest.length - 1] = Object.assign(Object.create(Object.getPrototypeOf(last)), last, { content: last.content.trimEnd() });
    return { tokens: rest, id: m[2] };
  }
  return { tokens };
}

function headingBlock(level: number, nodes: InlineNodes): DocumentBlock {
  return { ...paragraph(nodes), type: headingType(level), data: {} };
}

function codeBlock(content: string, syntax: string): DocumentBlock {
  const text = content.endsWith('\n') ? content.slice(0, -1) : content;
  const lines = text.split('\n').map((line) => block('code-line', {}, [textNode(line)]));
  return block('code', syntax ? { syntax } : {}, lines);
}

// ---------------------------------------------------------------------------------------
// Paragraphs, images and HTML blocks

function convertParagraph(inline: MarkdownToken | undefined): DocumentBlock[] {
  const children = inline?.children ?? [];
  const images = imagesOnly(children);
  if (images) return [images];
  return inlineTokensToSegments(children)
    .filter((segment) => segment.some((n) => n.object === 'inline' || n.leaves.some((l) => l.text !== '')))
    .map(paragraph);
}

/** A paragraph holding nothing but images (and whitespace) is GitBook's `images` block. */
function imagesOnly(tokens: readonly MarkdownToken[]): DocumentBlock | null {
  const images: DocumentBlock[] = [];
  for (const token of tokens) {
    if (token.type === 'image') {
      const title = token.attrGet('title');
      images.push(imageBlock(attr(token, 'src'), inlineTokensToPlainText(token.children), title ? [paragraph([textNode(String(title))])] : []));
    } else if (token.type === 'html_inline' && /^<img\s/i.test(token.content)) {
      const img = parseHtmlTag(token.content);
      if (!img || img.closing || !img.attrs.src) return null;
      images.push(imageFromAttributes(img.attrs, undefined, []));
    } else if (!(token.type === 'softbreak' || token.type === 'hardbreak' || (token.type === 'text' && token.content.trim() === ''))) {
      return null;
    }
  }
  return images.length > 0 ? imagesBlock(images) : null;
}

function attr(token: MarkdownToken, name: string): string {
  const value = token.attrGet(name);
  return value === null || value === undefined ? '' : String(value);
}

function convertHtmlBlock(content: string): DocumentBlock[] {
  const html = content.trim();
  const details = completeDetails(html);
  if (details) return [details];
  return htmlToBlocks(html);
}

/** `<details><summary>..</summary>..</details>` written as one HTML block. */
function completeDetails(html: string): DocumentBlock | null {
  const open = DETAILS_OPEN.exec(html);
  if (!open || !/<\/details>$/i.test(html)) return null;
  let inner = html.slice(open[0].length, -'</details>'.length).trim();
  if (/<\/?details[\s>]/i.test(inner)) return null;
  let summary = '';
  const summaryMatch = SUMMARY.exec(inner);
  if (summaryMatch) {
    summary = summaryMatch[1];
    inner = inner.slice(summaryMatch[0].length);
  }
  return expandableBlock(summary, markdownToBlocks(inner.trim()), /\bopen\b/i.test(open[1] ?? ''));
}
