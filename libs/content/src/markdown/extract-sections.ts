import type { DocumentBlock, JSONDocument } from './document.types';
import { blocksToPlainText, inlineNodesToPlainText } from './document-to-plain-text';
import { headingSlug } from './heading-anchors';

export interface DocumentSection {
  /** The heading's anchor (`meta.id`, else its slug); '' for the text before the first heading. */
  id: string;
  title: string;
  /** 1-3 for `heading-1`..`heading-3`; 0 for the text before the first heading. */
  level: number;
  text: string;
}

const HEADING_LEVELS: Record<string, number> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 };

/**
 * Splits a document at its top-level headings, for search: each section is a heading and the
 * plain text of the blocks up to the next heading. Text before the first heading forms a
 * section with id '' when there is any.
 */
export function extractSections(doc: JSONDocument): DocumentSection[] {
  const sections: DocumentSection[] = [];
  const usedIds = new Set<string>();
  let current: { id: string; title: string; level: number; blocks: DocumentBlock[] } = { id: '', title: '', level: 0, blocks: [] };
  const flush = () => {
    const text = blocksToPlainText(current.blocks);
    if (current.level > 0 || text !== '') sections.push({ id: current.id, title: current.title, level: current.level, text });
  };
  for (const node of doc.nodes ?? []) {
    const level = HEADING_LEVELS[node.type];
    if (level === undefined) {
      current.blocks.push(node);
      continue;
    }
    flush();
    const title = inlineNodesToPlainText(node.nodes ?? []);
    current = { id: node.meta?.id ?? uniqueSlug(title, usedIds), title, level, blocks: [] };
    usedIds.add(current.id);
  }
  flush();
  return sections;
}

function uniqueSlug(title: string, used: Set<string>): string {
  const base = headingSlug(title) || 'section';
  let id = base;
  for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
  return id;
}
