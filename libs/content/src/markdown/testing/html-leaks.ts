import type { DocumentBlock, DocumentInline, DocumentText } from '../document.types';
import { isHtmlElementName } from '../html-elements';
import { markdownToDocument } from '../markdown-to-document';

/**
 * An HTML start or end tag as a reader would see it: `<td>`, `</tr>`, `<h4 align="center">`,
 * `<br/>`. Only names of HTML elements count: `<space-id>` placeholders are text.
 */
const HTML_TAG = /<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;

/**
 * The HTML tags a page's document shows as text: found in text leaves (code marks and code
 * blocks excluded) and written as markup in the page. Text the author escaped
 * (`\<select list>`, `&#x3C;script>`) is meant to be read as it is. The target is none.
 */
export function htmlLeaks(markdown: string): string[] {
  const found: string[] = [];
  const visit = (node: DocumentBlock | DocumentInline | DocumentText): void => {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        if (leaf.marks.some((mark) => mark.type === 'code')) continue;
        for (const match of leaf.text.matchAll(HTML_TAG)) {
          if (isHtmlElementName(match[1]) && writtenAsMarkup(markdown, match[0])) found.push(match[0]);
        }
      }
      return;
    }
    if (node.object === 'block' && node.type === 'code') return;
    for (const child of node.nodes ?? []) visit(child);
    for (const fragment of node.fragments ?? []) for (const child of fragment.nodes) visit(child);
  };
  for (const node of markdownToDocument(markdown).document.nodes) visit(node);
  return found;
}

function writtenAsMarkup(markdown: string, tag: string): boolean {
  for (let at = markdown.indexOf(tag); at !== -1; at = markdown.indexOf(tag, at + 1)) {
    if (markdown[at - 1] !== '\\') return true;
  }
  return false;
}
