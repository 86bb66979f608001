import { isTag, isText, type ChildNode, type Element } from 'domhandler';
import type { DocumentBlock } from './document.types';
import { block, fragment, paragraph, textNode, voidBlock } from './document-nodes';
import { parseHtmlFragment, type HtmlTag } from './html-fragments';
import { firstSrc, InlineBuilder, isDarkSource, type InlineNodes } from './inline-to-document';
import { htmlTableToDocument } from './html-table-to-document';

/**
 * GitBook blocks from the HTML GitBook writes into markdown (`html_block` tokens), read with a
 * real parser: figures and pictures (images with a dark variant), aligned images, paragraphs and
 * headings (`<p align>`, `<h3 align>`), HTML tables (cards included), lists, hints written as
 * `<div data-tag="hint">`, drawings. Elements with no GitBook meaning are unwrapped, as a browser
 * shows them: their content stays, the tag goes; scripts and styles are dropped.
 */
export function htmlToBlocks(html: string): DocumentBlock[] {
  return domToBlocks(parseHtmlFragment(html));
}

/** Inline-level elements: a run of them (with text) is one paragraph. */
const INLINE_ELEMENTS = new Set(
  (
    'a abbr b bdi bdo big br button cite code data del dfn em font i img input ins kbd label mark picture q s samp small span strike ' +
    'strong sub sup time tt u var wbr math select option source nobr'
  ).split(' '),
);

const DROPPED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'meta', 'link']);

const TEXT_ALIGNMENTS: Record<string, string> = { left: 'start', center: 'center', right: 'end', start: 'start', end: 'end' };
const IMAGE_ALIGNMENTS = new Set(['left', 'center', 'right']);

export function domToBlocks(nodes: readonly ChildNode[]): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  let run: ChildNode[] = [];
  let images: DocumentBlock[] = [];
  const flushRun = () => {
    if (run.length > 0) out.push(...inlineParagraphs(run));
    run = [];
  };
  const flushImages = () => {
    if (images.length > 0) out.push(imagesBlock(images));
    images = [];
  };
  for (const node of nodes) {
    if (isText(node)) {
      if (node.data.trim() !== '' || run.length > 0) {
        flushImages();
        run.push(node);
      }
      continue;
    }
    if (!isTag(node) || DROPPED.has(node.name)) continue;
    const image = runIsBlank(run) ? imageOf(node) : null;
    if (image) {
      run = [];
      if (image.type === 'drawing') {
        flushImages();
        out.push(image);
      } else images.push(image);
      continue;
    }
    if (INLINE_ELEMENTS.has(node.name)) {
      flushImages();
      run.push(node);
      continue;
    }
    flushRun();
    flushImages();
    out.push(...elementToBlocks(node));
  }
  flushRun();
  flushImages();
  return out;
}

function runIsBlank(run: readonly ChildNode[]): boolean {
  return run.every((node) => isText(node) && node.data.trim() === '');
}

function elementToBlocks(el: Element): DocumentBlock[] {
  const attrs = el.attribs;
  switch (el.name) {
    case 'table':
      return [htmlTableToDocument(el)];
    case 'p': {
      const aligned = alignedImages(el);
      if (aligned) return [aligned];
      const align = TEXT_ALIGNMENTS[(attrs.align ?? '').toLowerCase()];
      return inlineParagraphs(el.children).map((p) => (align ? { ...p, data: { align } } : p));
    }
    case 'div': {
      if (attrs['data-tag'] === 'hint') return [block('hint', { style: hintStyle(attrs['data-style']) }, domToBlocks(el.children))];
      const aligned = alignedImages(el);
      if (aligned) return [aligned];
      return domToBlocks(el.children);
    }
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const align = TEXT_ALIGNMENTS[(attrs.align ?? '').toLowerCase()];
      const heading: DocumentBlock = { ...paragraph(trimEdges(inlineNodesOf(el.children))), type: headingType(Number(el.name[1])), data: align ? { align } : {} };
      return [heading];
    }
    case 'ul':
    case 'ol': {
      const items = el.children.filter((child): child is Element => isTag(child) && child.name === 'li').map((li) => block('list-item', {}, domToBlocks(li.children)));
      const start = Number(attrs.start ?? 1);
      if (el.name === 'ul') return [block('list-unordered', {}, items)];
      return [block('list-ordered', Number.isFinite(start) && start !== 1 ? { start } : {}, items)];
    }
    case 'blockquote':
      return [block('blockquote', {}, domToBlocks(el.children))];
    case 'hr':
      return [voidBlock('divider', {})];
    case 'pre':
      return [preToCode(el)];
    case 'details':
      return [detailsToExpandable(el)];
    default:
      return domToBlocks(el.children);
  }
}

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

function hintStyle(style: string | undefined): string {
  return style && HINT_STYLES.has(style) ? style : 'info';
}

export function headingType(level: number): string {
  // GitBook has three heading levels; deeper headings become the third.
  return level <= 1 ? 'heading-1' : level === 2 ? 'heading-2' : 'heading-3';
}

/** Paragraphs of inline content: each `<p>` inside starts a new one. */
export function inlineParagraphs(nodes: readonly ChildNode[]): DocumentBlock[] {
  const builder = new InlineBuilder();
  feedInline(builder, nodes);
  return builder
    .finish()
    .map(trimEdges)
    .filter((segment) => segment.some((n) => n.object === 'inline' || n.leaves.some((l) => l.text !== '')))
    .map(paragraph);
}

/** Inline nodes of HTML content, `<p>` boundaries joined with line breaks. */
export function inlineNodesOf(nodes: readonly ChildNode[]): InlineNodes {
  const paragraphs = inlineParagraphs(nodes);
  const joined: InlineNodes = [];
  paragraphs.forEach((p, index) => {
    if (index > 0) joined.push(textNode('\n'));
    joined.push(...((p.nodes ?? []) as InlineNodes));
  });
  return joined;
}

const VOID_ELEMENTS = new Set(['img', 'br', 'source', 'input', 'wbr', 'hr', 'col', 'area', 'embed', 'track', 'param']);

/** Replays parsed HTML into the inline builder, as the tags and text it was written as. */
export function feedInline(builder: InlineBuilder, nodes: readonly ChildNode[]): void {
  for (const node of nodes) {
    if (isText(node)) builder.text(node.data.replace(/\s+/g, ' '));
    else if (isTag(node) && !DROPPED.has(node.name)) {
      builder.html(tagOf(node));
      feedInline(builder, node.children);
      if (!VOID_ELEMENTS.has(node.name)) builder.html({ name: node.name, closing: true, selfClosing: false, attrs: {} });
    }
  }
}

function tagOf(el: Element): HtmlTag {
  return { name: el.name, closing: false, selfClosing: false, attrs: el.attribs };
}

/** Whitespace at the edges of HTML content is not text a reader sees. */
function trimEdges(nodes: InlineNodes): InlineNodes {
  const first = nodes[0];
  if (first?.object === 'text' && first.leaves.length > 0) first.leaves[0].text = first.leaves[0].text.replace(/^ +/, '');
  const last = nodes[nodes.length - 1];
  if (last?.object === 'text' && last.leaves.length > 0) {
    const leaf = last.leaves[last.leaves.length - 1];
    leaf.text = leaf.text.replace(/ +$/, '');
  }
  return nodes;
}

// ---------------------------------------------------------------------------------------
// Images

/** The image block an element stands for at block level (`<figure>`, `<img>`, `<picture>`), or null. */
function imageOf(el: Element): DocumentBlock | null {
  if (el.name === 'img') {
    if (!el.attribs.src) return null;
    if ((el.attribs.class ?? '').split(/\s+/).includes('gitbook-drawing')) return voidBlock('drawing', { ref: { kind: 'file', file: el.attribs.src } });
    return imageFromAttributes(el.attribs, undefined, []);
  }
  if (el.name === 'picture') {
    const { img, dark } = pictureSources(el);
    return img?.src ? imageFromAttributes(img, dark, []) : null;
  }
  if (el.name !== 'figure') return null;
  let image: DocumentBlock | null = null;
  let caption: DocumentBlock[] = [];
  for (const child of el.children) {
    if (isText(child) && child.data.trim() === '') continue;
    if (!isTag(child)) return null;
    if (child.name === 'figcaption') caption = inlineParagraphs(child.children);
    else if (!image && (child.name === 'img' || child.name === 'picture')) image = imageOf(child);
    else return null;
  }
  if (!image || image.type !== 'image') return null;
  return caption.length > 0 ? { ...image, fragments: [fragment('caption', caption)] } : image;
}

function pictureSources(picture: Element): { img?: Record<string, string>; dark?: string } {
  let img: Record<string, string> | undefined;
  let dark: string | undefined;
  for (const child of picture.children) {
    if (!isTag(child)) continue;
    if (child.name === 'img' && !img) img = child.attribs;
    else if (child.name === 'source' && isDarkSource(tagOf(child))) dark = firstSrc(child.attribs.srcset ?? '');
  }
  return { img, dark };
}

/** `<div align>` / `<p align>` (or `<div data-full-width>`) holding only images: an aligned images block. */
function alignedImages(el: Element): DocumentBlock | null {
  const images: DocumentBlock[] = [];
  for (const child of el.children) {
    if (isText(child) && child.data.trim() === '') continue;
    const image = isTag(child) ? imageOf(child) : null;
    if (!image || image.type !== 'image') return null;
    images.push(image);
  }
  if (images.length === 0) return null;
  const align = (el.attribs.align ?? '').toLowerCase();
  const fullWidth = el.attribs['data-full-width'];
  const data: Record<string, unknown> = {};
  if (IMAGE_ALIGNMENTS.has(align)) data.align = align;
  if (fullWidth === 'true' || fullWidth === 'false') data.fullWidth = fullWidth === 'true';
  return block('images', data, images);
}

export function imagesBlock(images: DocumentBlock[], align?: string): DocumentBlock {
  return block('images', align ? { align } : {}, images);
}

export function imageBlock(src: string, alt: string, caption: DocumentBlock[], extra: Record<string, unknown> = {}): DocumentBlock {
  const data: Record<string, unknown> = { ref: { kind: 'url', url: src } };
  if (typeof extra.refDark === 'string') data.refDark = { kind: 'url', url: extra.refDark };
  if (alt) data.alt = alt;
  if (extra.width !== undefined) data.width = extra.width;
  if (extra.height !== undefined) data.height = extra.height;
  return voidBlock('image', data, caption.length > 0 ? [fragment('caption', caption)] : []);
}

export function imageFromAttributes(attrs: Record<string, string>, dark: string | undefined, caption: DocumentBlock[]): DocumentBlock {
  return imageBlock(attrs.src ?? '', attrs.alt ?? '', caption, { refDark: dark, width: parseLength(attrs.width), height: parseLength(attrs.height) });
}

/** `Length`: a bare number, or `{unit, value}` for `50%`, `120px`. */
export function parseLength(value: string | undefined): number | { unit: string; value: number } | undefined {
  const match = value ? /^\s*(\d+(?:\.\d+)?)\s*([a-z%]*)\s*$/i.exec(value) : null;
  if (!match) return undefined;
  const number = Number(match[1]);
  return match[2] ? { unit: match[2].toLowerCase(), value: number } : number;
}

// ---------------------------------------------------------------------------------------
// Code and expandables

/**
 * GitBook exports code with highlighted lines as `<pre class="language-x"><code>`, wrapping
 * each highlighted line (newline included) in `<strong>`.
 */
function preToCode(pre: Element): DocumentBlock {
  const code = pre.children.find((child): child is Element => isTag(child) && child.name === 'code');
  const classes = `${pre.attribs.class ?? ''} ${code?.attribs.class ?? ''}`;
  const syntax = /(?:^|\s)(?:language|lang)-(\S+)/.exec(classes)?.[1] ?? '';
  const lines: Array<{ text: string; highlighted: boolean }> = [{ text: '', highlighted: false }];
  const visit = (nodes: readonly ChildNode[], highlighted: boolean) => {
    for (const node of nodes) {
      if (isTag(node)) visit(node.children, highlighted || node.name === 'strong');
      else if (isText(node)) {
        node.data.split('\n').forEach((part, index, parts) => {
          const line = lines[lines.length - 1];
          if (part !== '' || index < parts.length - 1) line.highlighted ||= highlighted;
          line.text += part;
          if (index < parts.length - 1) lines.push({ text: '', highlighted: false });
        });
      }
    }
  };
  visit(code ? code.children : pre.children, false);
  if (lines.length > 1 && lines[lines.length - 1].text === '') lines.pop();
  return block(
    'code',
    syntax ? { syntax } : {},
    lines.map((line) => block('code-line', line.highlighted ? { highlighted: true } : {}, [textNode(line.text)])),
  );
}

function detailsToExpandable(details: Element): DocumentBlock {
  const summary = details.children.find((child): child is Element => isTag(child) && child.name === 'summary');
  const body = domToBlocks(details.children.filter((child) => child !== summary));
  const title = summary ? inlineNodesOf(summary.children) : [];
  return voidBlock('expandable', 'open' in details.attribs ? { defaultExpanded: true } : {}, [
    fragment('expandable-title', [paragraph(trimEdges(title))], true),
    fragment('expandable-body', body, true),
  ]);
}

/** Plain text of parsed HTML, whitespace collapsed. */
export function domText(nodes: readonly ChildNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (isText(node)) text += node.data;
    else if (isTag(node) && !DROPPED.has(node.name)) text += domText(node.children);
  }
  return text.replace(/\s+/g, ' ').trim();
}

