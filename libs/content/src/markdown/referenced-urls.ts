import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentText } from './document.types';
import { markdownToDocument } from './markdown-to-document';
import { splitHtml } from './html-fragments';
import { refUrl } from './inline-to-markdown';

type Node = DocumentBlock | DocumentInline | DocumentText;

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Relative URLs of the files a page shows: markdown and HTML images (`<img>`, `<figure>`),
 * `{% file src %}` and the front matter `cover`. As written (markdown escapes undone, no
 * percent-decoding), in order of appearance, without duplicates; absolute URLs (`https:`,
 * `data:`, `//host`) and fragment-only references are left out.
 */
export function referencedAssets(markdown: string): string[] {
  const { frontMatter, document } = markdownToDocument(markdown);
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
    if (node.type === 'image' || node.type === 'inline-image' || node.type === 'file') add(refUrl(node.data.ref));
  });
  if (typeof frontMatter.cover === 'string') add(frontMatter.cover);
  return [...urls];
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
