import { isDeepStrictEqual } from 'util';
import type { JSONDocument, ParsedPageMarkdown } from '../document.types';
import { documentToMarkdown } from '../document-to-markdown';
import { markdownToDocument } from '../markdown-to-document';

export interface RoundTrip {
  parsed: ParsedPageMarkdown;
  /** documentToMarkdown of the parsed page (front matter and title included). */
  markdown: string;
  reparsed: ParsedPageMarkdown;
  /** documentToMarkdown of the reparsed page. */
  markdownAgain: string;
}

/** markdown -> document -> markdown -> document -> markdown. */
export function roundTrip(markdown: string): RoundTrip {
  const parsed = markdownToDocument(markdown);
  const written = documentToMarkdown(parsed.document, { frontMatter: parsed.frontMatter, title: parsed.title });
  const reparsed = markdownToDocument(written);
  const markdownAgain = documentToMarkdown(reparsed.document, { frontMatter: reparsed.frontMatter, title: reparsed.title });
  return { parsed, markdown: written, reparsed, markdownAgain };
}

/** A copy without `key`s (and heading `meta`), for comparing structure across differently keyed trees. */
export function withoutKeys(doc: JSONDocument): JSONDocument {
  return JSON.parse(JSON.stringify(doc, (name, value) => (name === 'key' || name === 'meta' ? undefined : value))) as JSONDocument;
}

/** Index of the first top-level node that differs, for failure messages. */
export function firstDifference(a: JSONDocument, b: JSONDocument): { index: number; expected: unknown; actual: unknown } | null {
  const length = Math.max(a.nodes.length, b.nodes.length);
  for (let i = 0; i < length; i++) {
    if (!isDeepStrictEqual(a.nodes[i], b.nodes[i])) return { index: i, expected: a.nodes[i], actual: b.nodes[i] };
  }
  return null;
}
