import type { RevisionPageNode } from '@quire/domain';

/** A page of a revision as the index needs it: only documents (sheets with markdown) are searched. */
export interface SearchablePage {
  id: string;
  title: string;
  path: string;
  blob: string;
  description: string;
  /** Titles of the enclosing pages and groups, top-level first. */
  ancestors: string[];
}

export function searchablePages(tree: readonly RevisionPageNode[]): SearchablePage[] {
  const out: SearchablePage[] = [];
  const walk = (pages: readonly RevisionPageNode[], ancestors: string[]) => {
    for (const page of pages) {
      if (page.kind === 'sheet' && page.blob) {
        out.push({ id: page.id, title: page.title ?? '', path: page.path ?? '', blob: page.blob, description: page.description ?? '', ancestors });
      }
      if (page.children?.length) walk(page.children, [...ancestors, page.title ?? '']);
    }
  };
  walk(tree, []);
  return out;
}
