import { parseDocument, Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import MarkdownIt from 'markdown-it';

/**
 * HTML reading for what GitBook writes into markdown, on htmlparser2 (the fastest of the real
 * HTML parsers measured here: about 4x parse5 on GitBook's own documentation).
 * - `splitHtml` / `parseHtmlTag`: the tags and text of a snippet as written, one at a time, for
 *   markdown-it's `html_inline` tokens (a tag opened in one token is closed in a later one);
 * - `parseHtmlFragment`: a whole `html_block` as a DOM tree.
 */

export interface HtmlTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Record<string, string>;
}

export type HtmlPiece = { kind: 'tag'; tag: HtmlTag; raw: string } | { kind: 'text'; text: string };

const utils = new MarkdownIt().utils;

/** Reads a string that is exactly one tag (an `html_inline` token), or returns null. */
export function parseHtmlTag(raw: string): HtmlTag | null {
  if (raw.charCodeAt(0) !== 0x3c /* < */) return null;
  const pieces = splitHtml(raw);
  return pieces.length === 1 && pieces[0].kind === 'tag' ? pieces[0].tag : null;
}

/** Splits an HTML snippet into tags and the (still entity-encoded) text between them; comments count as text. */
export function splitHtml(html: string): HtmlPiece[] {
  return new HtmlSplitter(html).pieces;
}

class HtmlSplitter implements TokenizerCallbacks {
  readonly pieces: HtmlPiece[] = [];
  private tagStart = -1;
  private tag: HtmlTag | null = null;
  private attrName = '';
  private attrValue = '';

  constructor(private readonly html: string) {
    const tokenizer = new Tokenizer({ decodeEntities: false }, this);
    tokenizer.write(html);
    tokenizer.end();
  }

  ontext(start: number, end: number): void {
    this.text(start, end);
  }
  // Comment-like callbacks give the content's range; `end` is the index of the closing `>`.
  oncomment(start: number, end: number): void {
    this.text(start - 4, end + 1);
  }
  ondeclaration(start: number, end: number): void {
    this.text(start - 2, end + 1);
  }
  onprocessinginstruction(start: number, end: number): void {
    this.text(start - 2, end + 1);
  }
  oncdata(start: number, end: number): void {
    this.text(start - 9, end + 1);
  }
  onopentagname(start: number, end: number): void {
    this.tagStart = start - 1;
    this.tag = { name: this.html.slice(start, end).toLowerCase(), closing: false, selfClosing: false, attrs: {} };
  }
  onattribname(start: number, end: number): void {
    this.attrName = this.html.slice(start, end).toLowerCase();
    this.attrValue = '';
  }
  onattribdata(start: number, end: number): void {
    this.attrValue += this.html.slice(start, end);
  }
  onattribentity(): void {
    // Not called: entities are decoded below, with the rest of the value.
  }
  ontextentity(): void {
    // Not called with decodeEntities: false.
  }
  onattribend(): void {
    if (this.tag && !(this.attrName in this.tag.attrs)) this.tag.attrs[this.attrName] = decodeHtmlEntities(this.attrValue);
  }
  onopentagend(end: number): void {
    this.finishTag(end + 1);
  }
  onselfclosingtag(end: number): void {
    if (this.tag) this.tag.selfClosing = true;
    this.finishTag(end + 1);
  }
  onclosetag(start: number, end: number): void {
    const close = this.html.indexOf('>', end);
    const raw = this.html.slice(start - 2, close === -1 ? this.html.length : close + 1);
    this.pieces.push({ kind: 'tag', tag: { name: this.html.slice(start, end).toLowerCase(), closing: true, selfClosing: false, attrs: {} }, raw });
  }
  onend(): void {
    // The tokenizer drops an unfinished tag at the end (`x <b`): it is text.
    const consumed = this.pieces.reduce((length, piece) => length + (piece.kind === 'text' ? piece.text.length : piece.raw.length), 0);
    if (consumed < this.html.length) this.text(consumed, this.html.length);
  }

  private finishTag(end: number): void {
    if (!this.tag) return;
    this.pieces.push({ kind: 'tag', tag: this.tag, raw: this.html.slice(this.tagStart, end) });
    this.tag = null;
  }

  private text(start: number, end: number): void {
    if (end <= start) return;
    const text = this.html.slice(Math.max(0, start), end);
    const last = this.pieces[this.pieces.length - 1];
    if (last?.kind === 'text') last.text += text;
    else this.pieces.push({ kind: 'text', text });
  }
}

/** The DOM of an HTML snippet (entities decoded, names lower-cased), as browsers would build it. */
export function parseHtmlFragment(html: string): ChildNode[] {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }).children;
}

export type { ChildNode, Element };

/** Decodes character references (`&#x26;`, `&amp;`), leaving backslashes alone. */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return utils.unescapeAll(text.replace(/\\/g, '\\\\'));
}

/** Encodes a value for a double-quoted attribute, the way GitBook's exporter does. */
export function encodeHtmlAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (ch) => `&#x${ch.charCodeAt(0).toString(16)};`);
}
