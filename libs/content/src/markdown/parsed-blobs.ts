import { LruCache } from '../store/lru-cache';
import type { ParsedPageMarkdown } from './document.types';
import { markdownToDocument } from './markdown-to-document';

/** Markdown characters' worth of parsed documents kept (a document weighs a few times its text). */
const BUDGET_CHARS = 16 << 20;

const parsed = new LruCache<{ page: ParsedPageMarkdown; chars: number }>(BUDGET_CHARS, (entry) => entry.chars);

/**
 * markdownToDocument of a page blob, parsed once per process while it stays in memory. A blob
 * id names its bytes, so the result never goes stale: reads of a page's document (live, by
 * revision, the published site) share one parse. The search index parses without it (it keeps
 * sections only). The result is shared: never mutate it.
 */
export function parseBlobMarkdown(blob: string, markdown: string): ParsedPageMarkdown {
  const hit = parsed.get(blob);
  if (hit) return hit.page;
  const page = markdownToDocument(markdown);
  parsed.set(blob, { page, chars: markdown.length + 1 });
  return page;
}
