import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentText, ParsedPageMarkdown } from './document.types';
import { markdownToDocument } from './markdown-to-document';
import { splitHtml } from './html-fragments';
import { refUrl } from './inline-to-markdown';
import { parseFrontMatter } from './front-matter';
import { parseMarkdownTokens, type MarkdownToken } from './parse-markdown';

type Node = DocumentBlock | DocumentInline | DocumentText;

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Relative URLs of the files a page shows or links to: markdown and HTML images (`<img>`
 * anywhere, `<figure>`, HTML tables, `srcset` of `<img>` and `<source>`, table header
 * rows), `{% file src %}`, links to local files that are not pages
 * (`[Download](.gitbook/assets/doc.pdf)`, GitBook's export form) and the front matter
 * `cover`. As written (markdown escapes undone, no
 * percent-decoding), in order of appearance, without duplicates; absolute URLs (`https:`,
 * `data:`, `//host`) and fragment-only references are left out. `parsed` is the page's
 * markdownToDocument, when the caller has it already (parseBlobMarkdown).
 */
export function referencedAssets(markdown: string, parsed: ParsedPageMarkdown = markdownToDocument(markdown)): string[] {
  const { frontMatter, document } = parsed;
  const urls = new Set<string>();
  const add = (url: string) => {
    if (url !== '' && !url.startsWith('#') && !url.startsWith('//') && !HAS_SCHEME.test(url)) urls.add(url);
  };
  walk(document.nodes, (node) => {
    if (node.object === 'text') {
      // HTML the converter keeps as text (`<p align="center"><a><img src=..>`) still shows images.
      for (const leaf of node.leaves) if (leaf.text.includes('<img') && !leaf.marks.some((m) => m.type === 'code')) imgSources(leaf.text).forEach(add);
      return;
    }
    if (node.type === 'code') return 'skip';
    if (node.type === 'image' || node.type === 'inline-image' || node.type === 'file' || node.type === 'drawing') add(refUrl(node.data.ref));
    if ((node.type === 'image' || node.type === 'inline-image') && node.data.refDark) add(refUrl(node.data.refDark));
  });
  // The document keeps some HTML only as text, and links only as links: a pass over the
  // parser's tokens finds what it does not show as an image.
  walkTokens(parseMarkdownTokens(parseFrontMatter(markdown).body), (token) => {
    if (token.type === 'image') add(String(token.attrGet('src') ?? ''));
    else if (token.type === 'link_open') {
      const href = String(token.attrGet('href') ?? '');
      if (isLocalFileLink(href)) add(href);
    } else if (token.type === 'html_block' || token.type === 'html_inline') htmlAssetUrls(token.content).forEach(add);
  });
  if (typeof frontMatter.cover === 'string') add(frontMatter.cover);
  return [...urls];
}

/**
 * Paths of GitBook reusable content, `{% include "../.gitbook/includes/x.md" %}`, as
 * written, in order, without duplicates; code is left out.
 */
export function referencedIncludes(markdown: string): string[] {
  if (!/\{%\s*include/.test(markdown)) return [];
  const found = new Set<string>();
  walkTokens(parseMarkdownTokens(parseFrontMatter(markdown).body), (token) => {
    if (token.type !== 'inline' && token.type !== 'html_block') return;
    for (const match of token.content.matchAll(INCLUDE)) found.add(match[1] ?? match[2] ?? match[3]);
    return 'skip';
  });
  return [...found];
}

const INCLUDE = /\{%\s*include\s+(?:"([^"]+)"|'([^']+)'|([^\s%]+))\s*%\}/g;

/** A link to a file in the repository that is not a page: `files/doc.pdf`, not `page.md`,
 * `folder/`, `page.html` or `https://...`. */
function isLocalFileLink(href: string): boolean {
  if (!href || href.startsWith('#') || href.startsWith('//') || HAS_SCHEME.test(href)) return false;
  const path = href.replace(/[?#].*$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /\.[a-z0-9]{1,8}$/i.test(name) && !/\.(?:md|markdown|html?)$/i.test(name);
}

/** `<img src>`, `srcset` of `<img>` and `<source>`, and `<a href>` to local files. */
function htmlAssetUrls(html: string): string[] {
  if (!/<(?:img|source|a)\b/i.test(html)) return [];
  const urls: string[] = [];
  for (const piece of splitHtml(html)) {
    if (piece.kind !== 'tag' || piece.tag.closing) continue;
    const { name, attrs } = piece.tag;
    if (name === 'img' && attrs.src) urls.push(attrs.src);
    if ((name === 'img' || name === 'source') && attrs.srcset) {
      for (const candidate of attrs.srcset.split(',')) {
        const url = candidate.trim().split(/\s+/)[0];
        if (url) urls.push(url);
      }
    }
    if (name === 'a' && attrs.href && isLocalFileLink(attrs.href)) urls.push(attrs.href);
  }
  return urls;
}

function walkTokens(tokens: readonly MarkdownToken[], visit: (token: MarkdownToken) => void | 'skip'): void {
  for (const token of tokens) {
    if (token.type === 'fence' || token.type === 'code_block' || token.type === 'code_inline') continue;
    if (visit(token) === 'skip') continue;
    if (token.children) walkTokens(token.children, visit);
  }
}

/** Targets of the page's links, mentions and content-refs, as written, in order, without duplicates. */
export function referencedLinks(markdown: string): string[] {
  const { document } = markdownToDocument(markdown);
  const urls = new Set<string>();
  walk(document.nodes, (node) => {
    if (node.object === 'text') return;
    if (node.type === 'link' || node.type === 'mention' || node.type === 'content-ref') {
      const url = refUrl(node.data.ref);
      if (url !== '') urls.add(url);
    }
  });
  return [...urls];
}

function imgSources(html: string): string[] {
  return splitHtml(html).flatMap((piece) => (piece.kind === 'tag' && piece.tag.name === 'img' && !piece.tag.closing && piece.tag.attrs.src ? [piece.tag.attrs.src] : []));
}

/** Visits nodes depth-first; a visitor returning 'skip' keeps the walk out of that node's children. */
function walk(nodes: readonly Node[], visit: (node: Node) => void | 'skip'): void {
  for (const node of nodes) {
    if (visit(node) === 'skip' || node.object === 'text') continue;
    if (node.nodes) walk(node.nodes, visit);
    for (const fragment of (node.fragments ?? []) as DocumentFragment[]) walk(fragment.nodes, visit);
  }
}
