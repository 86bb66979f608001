import { extractSections, markdownToDocument } from '@quire/content/markdown';

/** What the index keeps of a page's markdown: its sections, split at headings. */
export interface IndexedSection {
  /** The heading's anchor; '' for the text before the first heading. */
  id: string;
  /** The heading's text; '' for the text before the first heading. */
  title: string;
  /** Plain text of the section, one line per paragraph, list item, code line or table row. */
  text: string;
}

/** Page text is indexed up to this many characters per section (a 2 MB log dump is not prose). */
export const MAX_SECTION_TEXT = 200_000;

/**
 * Sections of a page blob's markdown (front matter and the leading `# title` are left out).
 * Parsed without parseBlobMarkdown's cache: the index keeps only the sections (cached by blob in
 * `rm_search_blobs`). Kept in that cache, a 1,000-page import's documents (about 12 MB of small
 * objects; the cache holds up to 60 MB of them) outlived the young generation, pushed out the
 * documents that reads had cached, and made the GC the largest cost of indexing an import.
 * Nor are block keys assigned: sections keep none.
 */
export function pageSections(markdown: string): IndexedSection[] {
  const { document } = markdownToDocument(markdown, { keys: false });
  return extractSections(document).map((s) => ({
    id: s.id,
    title: s.title,
    text: s.text.length > MAX_SECTION_TEXT ? s.text.slice(0, MAX_SECTION_TEXT) : s.text,
  }));
}
