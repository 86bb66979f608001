import type { DocumentBlock } from './document.types';
import { inlineNodesToPlainText } from './document-to-plain-text';

const HEADING_TYPES = new Set(['heading-1', 'heading-2', 'heading-3']);

/**
 * GitBook-style anchor for a heading: lower case, letters (any script), digits and `_` kept,
 * every other run of characters collapsed to one `-`. "42.5.4. Executing Dynamic Commands"
 * gives `42-5-4-executing-dynamic-commands`, as in GitBook's exported links.
 */
export function headingSlug(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) {
    return text
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '-')
      .replace(/^-+|-+$/g, '');
  }
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Sets `meta.id` on every top-level heading that has no custom anchor, in document order, suffixing repeats (`-1`,
 * `-2`) so each anchor is unique in the page.
 */
export function assignHeadingAnchors(nodes: DocumentBlock[]): void {
  const used = new Set<string>();
  for (const node of nodes) {
    if (!HEADING_TYPES.has(node.type)) continue;
    // A custom anchor (`<a href="#id" id="id"></a>` in the heading) is kept as written.
    if (typeof node.meta?.id === 'string') {
      used.add(node.meta.id);
      continue;
    }
    const base = headingSlug(inlineNodesToPlainText(node.nodes ?? [])) || 'section';
    let id = base;
    for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    node.meta = { id };
  }
}

/** The anchor a heading gets without a custom one (before repeats are suffixed). */
export function defaultHeadingAnchor(node: DocumentBlock): string {
  return headingSlug(inlineNodesToPlainText(node.nodes ?? [])) || 'section';
}
