import type { DocumentBlock, DocumentInline, DocumentMark, DocumentText } from './document.types';
import { appendLeaf, colorMark, fragment, inline, leaf, markBit, marksOf, normalizeInlineNodes, TEXT_COLORS, textNode, type MarkSet } from './document-nodes';
import { isHtmlElementName } from './html-elements';
import { parseHtmlTag, type HtmlTag } from './html-fragments';
import { MATH_INLINE_TOKEN } from './math-syntax';
import type { MarkdownToken } from './parse-markdown';

export type InlineNodes = Array<DocumentInline | DocumentText>;

const BOLD = markBit('bold');
const ITALIC = markBit('italic');
const STRIKETHROUGH = markBit('strikethrough');
const CODE = markBit('code');

const HTML_MARKS: Record<string, MarkSet> = {
  strong: BOLD,
  b: BOLD,
  em: ITALIC,
  i: ITALIC,
  s: STRIKETHROUGH,
  del: STRIKETHROUGH,
  strike: STRIKETHROUGH,
  code: CODE,
  kbd: markBit('keyboard'),
  sup: markBit('superscript'),
  sub: markBit('subscript'),
};

const TOKEN_MARKS: Record<string, MarkSet> = {
  strong_open: BOLD,
  strong_close: BOLD,
  em_open: ITALIC,
  em_close: ITALIC,
  s_open: STRIKETHROUGH,
  s_close: STRIKETHROUGH,
};

/**
 * Converts one inline token list into GitBook text and inline nodes. The result is a list of
 * segments: GitBook writes multi-paragraph table cells and captions as `<p>..</p><p>..</p>`,
 * so each `<p>` boundary starts a new segment; callers turn segments into paragraphs or join
 * them with line breaks.
 */
export function inlineTokensToSegments(tokens: readonly MarkdownToken[]): InlineNodes[] {
  const builder = new InlineBuilder();
  for (const token of tokens) builder.add(token);
  return builder.finish();
}

/** Bodies of the page's footnotes by id, while its blocks are converted (see withAnnotationBodies). */
let annotationBodies: ReadonlyMap<number, DocumentBlock[]> | null = null;

/** Runs a conversion in which footnote references (`word[^1]`) become annotations with these bodies. */
export function withAnnotationBodies<T>(bodies: ReadonlyMap<number, DocumentBlock[]>, convert: () => T): T {
  const previous = annotationBodies;
  annotationBodies = bodies;
  try {
    return convert();
  } finally {
    annotationBodies = previous;
  }
}

/**
 * An inline HTML element whose content is not text of the paragraph but part of the element:
 * a button's label, an icon's name, an expression, a mention's generated label, a picture's
 * sources. Its content is collected until its end tag.
 */
interface Capture {
  tag: HtmlTag;
  /** Open elements of the same name inside it, so the right end tag closes it. */
  depth: number;
  text: string;
  darkSource?: string;
  img?: Record<string, string>;
}

/** Plain text of inline tokens, as used for image alt text. */
export function inlineTokensToPlainText(tokens: readonly MarkdownToken[] | null): string {
  if (!tokens) return '';
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'text_special') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n';
    else if (token.type === 'image') text += inlineTokensToPlainText(token.children);
    else if (token.type === MATH_INLINE_TOKEN) text += token.content;
  }
  return text;
}

/**
 * Builds inline nodes from markdown inline tokens, or from HTML read by a parser (`html`,
 * `text`), for the inline HTML GitBook writes inside paragraphs, cells and captions.
 */
export class InlineBuilder {
  private readonly segments: InlineNodes[] = [];
  private capture: Capture | null = null;
  private current: InlineNodes = [];
  private link: DocumentInline | null = null;
  private linkFromHtml = false;
  private inMention = false;
  private readonly markCounts = [0, 0, 0, 0, 0, 0, 0, 0];
  private active: MarkSet = 0;
  /** Open `<mark>` elements, innermost last; null for one that sets no colour GitBook has. */
  private readonly colors: Array<DocumentMark | null> = [];

  add(token: MarkdownToken): void {
    if (this.inMention) {
      if (token.type === 'link_close') this.inMention = false;
      return;
    }
    if (this.capture && token.type !== 'html_inline') {
      this.capture.text += token.type === 'softbreak' || token.type === 'hardbreak' ? ' ' : token.content || token.markup;
      return;
    }
    switch (token.type) {
      case 'text':
      case 'text_special':
        this.addText(token.content, 0);
        return;
      case 'softbreak':
        this.addText(' ', 0);
        return;
      case 'hardbreak':
        this.addText('\n', 0);
        return;
      case 'code_inline':
        this.addText(token.content, CODE);
        return;
      case 'strong_open':
      case 'em_open':
      case 's_open':
        this.changeMark(TOKEN_MARKS[token.type], 1);
        return;
      case 'strong_close':
      case 'em_close':
      case 's_close':
        this.changeMark(TOKEN_MARKS[token.type], -1);
        return;
      case 'link_open':
        this.openMarkdownLink(token);
        return;
      case 'link_close':
        if (this.link && !this.linkFromHtml) this.closeLink();
        return;
      case 'image':
        this.addInline(inlineImage(attr(token, 'src'), inlineTokensToPlainText(token.children), attr(token, 'title')));
        return;
      case MATH_INLINE_TOKEN:
        this.addMath(token.content);
        return;
      case 'html_inline':
        this.addHtml(token.content);
        return;
      case 'footnote_ref':
        this.annotate(annotationBodies?.get((token.meta as { id: number }).id));
        return;
      default:
        if (token.content) this.addText(token.content, 0);
    }
  }

  /** Text read from HTML (entities already decoded). */
  text(text: string): void {
    if (this.capture) this.capture.text += text;
    else this.addText(text, 0);
  }

  /**
   * An HTML tag read by the parser. Returns false when the tag means nothing here and is not
   * an HTML element either (`<your-token>` is text); other unknown elements are unwrapped,
   * as a browser shows them: their content stays, the tag goes.
   */
  html(tag: HtmlTag): boolean {
    if (this.capture) {
      this.captureTag(tag);
      return true;
    }
    return this.applyHtmlTag(tag) || isHtmlElementName(tag.name);
  }

  finish(): InlineNodes[] {
    if (this.capture) this.endCapture();
    this.endSegment();
    return this.segments;
  }

  private openMarkdownLink(token: MarkdownToken): void {
    const href = attr(token, 'href');
    if (attr(token, 'title') === 'mention') {
      // GitBook writes page mentions as `[title](path.md "mention")`; the label is generated.
      this.addInline(inline('mention', { ref: { kind: 'url', url: href } }));
      this.inMention = true;
      return;
    }
    if (this.link) return;
    this.openLink(href, false);
  }

  private openLink(url: string, fromHtml: boolean): void {
    this.link = inline('link', { ref: { kind: 'url', url } }, []);
    this.linkFromHtml = fromHtml;
    this.current.push(this.link);
  }

  private closeLink(): void {
    if (!this.link) return;
    this.link.nodes = normalizeInlineNodes(this.link.nodes ?? []);
    this.link = null;
    this.linkFromHtml = false;
  }

  private addHtml(raw: string): void {
    const tag = parseHtmlTag(raw);
    if (!tag || !this.html(tag)) this.addText(raw, 0);
  }

  /** Returns false when the tag has no GitBook meaning here. */
  private applyHtmlTag(tag: HtmlTag): boolean {
    if (!tag.closing && startsCapture(tag)) {
      this.capture = { tag, depth: 0, text: '' };
      if (tag.name === 'img') this.endCapture();
      return true;
    }
    if (tag.name === 'mark') {
      if (!tag.closing) this.colors.push(markColor(tag.attrs.style ?? ''));
      else if (this.colors.length === 0) return false;
      else this.colors.pop();
      return true;
    }
    const mark = HTML_MARKS[tag.name];
    if (mark !== undefined) {
      if (!tag.closing) return this.changeMark(mark, 1);
      return this.changeMark(mark, -1);
    }
    switch (tag.name) {
      case 'br':
        if (tag.closing) return false;
        this.addText('\n', 0);
        return true;
      case 'p':
        this.endSegment();
        return true;
      case 'a':
        if (tag.closing) {
          if (!this.link || !this.linkFromHtml) return false;
          this.closeLink();
          return true;
        }
        if (this.link || tag.attrs.href === undefined) return false;
        this.openLink(tag.attrs.href, true);
        return true;
      default:
        return false;
    }
  }

  /**
   * A footnote reference annotates the word written right before it (GitBook's markdown form
   * of an annotation). Without a word before it, or inside a link, it is dropped.
   */
  private annotate(body: DocumentBlock[] | undefined): void {
    const target = this.target();
    const last = target[target.length - 1];
    if (!body || body.length === 0 || this.link || last?.object !== 'text') return;
    const lastLeaf = last.leaves[last.leaves.length - 1];
    const word = lastLeaf ? /\S+$/.exec(lastLeaf.text) : null;
    if (!lastLeaf || !word) return;
    lastLeaf.text = lastLeaf.text.slice(0, word.index);
    if (lastLeaf.text === '') last.leaves.pop();
    if (last.leaves.length === 0) target.pop();
    target.push({
      object: 'inline',
      type: 'annotation',
      key: '',
      data: {},
      nodes: [{ object: 'text', leaves: [leaf(word[0], lastLeaf.marks)] }],
      fragments: [fragment('annotation-body', body, true)],
      isVoid: false,
    });
  }

  private captureTag(tag: HtmlTag): void {
    const capture = this.capture!;
    if (tag.name === capture.tag.name) {
      if (!tag.closing) capture.depth++;
      else if (capture.depth > 0) capture.depth--;
      else this.endCapture();
      return;
    }
    if (tag.closing) return;
    if (tag.name === 'source' && isDarkSource(tag)) capture.darkSource = firstSrc(tag.attrs.srcset ?? '');
    else if (tag.name === 'img' && !capture.img) capture.img = tag.attrs;
  }

  private endCapture(): void {
    const { tag, text, darkSource, img } = this.capture!;
    this.capture = null;
    const node = capturedInline(tag, text, darkSource, img);
    if (!node) return this.addText(text, 0);
    // Links hold only text and images.
    if (this.link && node.type !== 'inline-image') this.closeLink();
    this.addInline(node);
  }

  /** Returns false for a closing tag with no matching opening one. */
  private changeMark(mark: MarkSet, delta: 1 | -1): boolean {
    const index = 31 - Math.clz32(mark);
    if (delta < 0 && this.markCounts[index] === 0) return false;
    this.markCounts[index] += delta;
    if (this.markCounts[index] > 0) this.active |= mark;
    else this.active &= ~mark;
    return true;
  }

  private addText(text: string, extra: MarkSet): void {
    if (text === '') return;
    const target = this.target();
    const marks = marksOf(this.active | extra);
    // Most text is outside any `<mark>`: no search (and no closure) for it.
    const color = this.colors.length === 0 ? undefined : this.colors.findLast((c) => c !== null);
    if (color) marks.push(color);
    const next = leaf(text, marks);
    const last = target[target.length - 1];
    if (last?.object === 'text') appendLeaf(last.leaves, next);
    else target.push({ object: 'text', leaves: [next] });
  }

  private addInline(node: DocumentInline): void {
    this.target().push(node);
  }

  private addMath(formula: string): void {
    // Links hold only text and images, so math inside a link text stays as its source.
    if (this.link) this.addText(`$$${formula}$$`, 0);
    else this.addInline(inline('inline-math', { formula }));
  }

  private target(): InlineNodes {
    return this.link ? (this.link.nodes as InlineNodes) : this.current;
  }

  private endSegment(): void {
    this.closeLink();
    this.segments.push(this.current);
    this.current = [];
  }
}

function attr(token: MarkdownToken, name: string): string {
  const value = token.attrGet(name);
  return value === null || value === undefined ? '' : String(value);
}

function inlineImage(src: string, alt: string, caption: string | null, extra: Record<string, unknown> = {}): DocumentInline {
  const data: Record<string, unknown> = { ref: { kind: 'url', url: src } };
  if (extra.refDark) data.refDark = extra.refDark;
  if (caption) data.caption = caption;
  if (alt) data.alt = alt;
  if (extra.size) data.size = extra.size;
  return inline('inline-image', data);
}

/**
 * `<mark style="color:red;background-color:yellow;">`: GitBook's colour mark (both colours,
 * `default` for the one not set), or null when it names no colour GitBook has.
 */
function markColor(style: string): DocumentMark | null {
  let text = 'default';
  let background = 'default';
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon === -1) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (!TEXT_COLORS.has(value)) continue;
    if (property === 'color') text = value;
    else if (property === 'background-color' || property === 'background') background = value;
  }
  return text === 'default' && background === 'default' ? null : colorMark(text, background);
}

/** Elements read whole (see Capture); `<img>` is one too, so that `<picture>` shares its reading. */
function startsCapture(tag: HtmlTag): boolean {
  switch (tag.name) {
    case 'picture':
      return true;
    case 'img':
      return Boolean(tag.attrs.src);
    case 'i':
      return iconName(tag) !== null;
    case 'code':
      return hasClass(tag, 'expression');
    case 'a':
      return 'data-mention' in tag.attrs || hasClass(tag, 'button');
    case 'button':
      return hasClass(tag, 'button');
    default:
      return false;
  }
}

export function hasClass(tag: HtmlTag, name: string): boolean {
  return (tag.attrs.class ?? '').split(/\s+/).includes(name);
}

/** `<i class="fa-gear">`: the Font Awesome icon name. */
export function iconName(tag: HtmlTag): string | null {
  const name = (tag.attrs.class ?? '').split(/\s+/).find((c) => c.startsWith('fa-') && c.length > 3);
  return name ? name.slice(3) : null;
}

export function isDarkSource(tag: HtmlTag): boolean {
  return /prefers-color-scheme\s*:\s*dark/i.test(tag.attrs.media ?? '');
}

/** The first URL of a `srcset` (GitBook writes one). */
export function firstSrc(srcset: string): string {
  return srcset.trim().split(/\s+/)[0] ?? '';
}

const BUTTON_ACTIONS = new Set(['search', 'ask']);

function capturedInline(tag: HtmlTag, text: string, darkSource: string | undefined, img: Record<string, string> | undefined): DocumentInline | null {
  switch (tag.name) {
    case 'img':
    case 'picture': {
      const attrs = tag.name === 'img' ? tag.attrs : img;
      if (!attrs?.src) return null;
      const size = attrs['data-size'] === 'line' || attrs['data-size'] === 'original' ? attrs['data-size'] : undefined;
      return inlineImage(attrs.src, attrs.alt ?? '', attrs.title ?? null, { size, refDark: darkSource ? { kind: 'url', url: darkSource } : undefined });
    }
    case 'i':
      return inline('icon', { icon: iconName(tag) });
    case 'code':
      return inline('expression', { expression: text });
    case 'a':
    case 'button': {
      if (tag.name === 'a' && 'data-mention' in tag.attrs) return tag.attrs.href ? inline('mention', { ref: { kind: 'url', url: tag.attrs.href } }) : null;
      const data: Record<string, unknown> = { label: text.trim(), kind: hasClass(tag, 'secondary') ? 'secondary' : 'primary' };
      if (tag.attrs['data-icon']) data.icon = tag.attrs['data-icon'];
      const action = tag.attrs['data-action'];
      if (tag.name === 'a' && tag.attrs.href !== undefined) data.ref = { kind: 'url', url: tag.attrs.href };
      else if (action && BUTTON_ACTIONS.has(action)) data.action = tag.attrs['data-query'] ? { action, query: tag.attrs['data-query'] } : { action };
      else return null;
      return inline('button', data);
    }
    default:
      return null;
  }
}

/** Joins segments into one node list, with a line break where a `<p>` boundary was. */
export function joinSegments(segments: InlineNodes[]): InlineNodes {
  const nonEmpty = segments.filter((segment) => segment.some((node) => node.object !== 'text' || node.leaves.some((l) => l.text !== '')));
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  const joined: InlineNodes = [];
  nonEmpty.forEach((segment, index) => {
    if (index > 0) joined.push(textNode('\n'));
    joined.push(...segment);
  });
  return joined;
}
