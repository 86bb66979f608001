import MarkdownIt from 'markdown-it';

/**
 * Just enough HTML reading for what GitBook writes into markdown: `<figure><img>`,
 * `<details><summary>`, and inline tags such as `<code>`, `<br>` and `<p>` in table cells.
 * Works on one html token at a time; anything it does not recognise is kept as text.
 */

export interface HtmlTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Record<string, string>;
}

export type HtmlPiece = { kind: 'tag'; tag: HtmlTag; raw: string } | { kind: 'text'; text: string };

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const utils = new MarkdownIt().utils;

/** Reads a string that is exactly one tag (an `html_inline` token), or returns null. */
export function parseHtmlTag(raw: string): HtmlTag | null {
  TAG.lastIndex = 0;
  const match = TAG.exec(raw);
  if (!match || TAG.lastIndex !== raw.length) return null;
  return toTag(match);
}

/** Splits an HTML snippet into tags and the (still entity-encoded) text between them. */
export function splitHtml(html: string): HtmlPiece[] {
  const pieces: HtmlPiece[] = [];
  let textStart = 0;
  for (let lt = html.indexOf('<'); lt !== -1; lt = html.indexOf('<', lt + 1)) {
    TAG.lastIndex = lt;
    const match = TAG.exec(html);
    if (!match) continue;
    if (lt > textStart) pieces.push({ kind: 'text', text: html.slice(textStart, lt) });
    pieces.push({ kind: 'tag', tag: toTag(match), raw: match[0] });
    textStart = TAG.lastIndex;
    lt = textStart - 1;
  }
  if (textStart < html.length) pieces.push({ kind: 'text', text: html.slice(textStart) });
  return pieces;
}

/** Decodes character references (`&#x26;`, `&amp;`), leaving backslashes alone. */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return utils.unescapeAll(text.replace(/\\/g, '\\\\'));
}

/** Encodes a value for a double-quoted attribute, the way GitBook's exporter does. */
export function encodeHtmlAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (ch) => `&#x${ch.charCodeAt(0).toString(16)};`);
}

function toTag(match: RegExpExecArray): HtmlTag {
  const attrs: Record<string, string> = {};
  const source = match[3];
  if (source) {
    ATTRIBUTE.lastIndex = 0;
    for (let attr = ATTRIBUTE.exec(source); attr; attr = ATTRIBUTE.exec(source)) {
      const value = attr[2] ?? attr[3] ?? attr[4] ?? '';
      attrs[attr[1].toLowerCase()] = decodeHtmlEntities(value);
    }
  }
  return { name: match[2].toLowerCase(), closing: match[1] === '/', selfClosing: match[4] === '/', attrs };
}
