/**
 * A revision's page tree as events record it. Page ids are assigned by the domain and stay
 * stable across revisions; content is referenced by git blob id.
 */
export interface RevisionPageNode {
  id: string;
  kind: 'sheet' | 'group' | 'link';
  title: string;
  slug: string;
  /** API path: the chain of slugs joined by '/'. */
  path: string;
  /** Git path of the page's markdown in the revision's commit (sheets only). */
  file?: string;
  /** Git blob id of that markdown. */
  blob?: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: boolean;
  href?: string;
  linkTitle?: string;
  /** Layout options the page's front matter sets (`layout:`); GitBook's defaults for the rest. */
  layout?: RevisionPageLayout;
  /** Front matter `cover` / `coverY`: a revision file (by id) or an external URL. */
  cover?: { file?: string; url?: string; yPos: number };
  /** Adaptive-content condition, front matter `if`. */
  condition?: string;
  children: RevisionPageNode[];
}

/** GitBook's RevisionPageLayoutOptions, each optional. */
export interface RevisionPageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full' | 'background';
  coverMask?: 'none' | 'radial';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
  tags?: boolean;
  actions?: boolean;
  anchors?: boolean;
}

export interface RevisionFileNode {
  id: string;
  name: string;
  /** Git path in the revision's commit. */
  file: string;
  blob: string;
  contentType: string;
  size: number;
  width?: number;
  height?: number;
}

export function* walkPages(pages: readonly RevisionPageNode[], parent?: RevisionPageNode): Generator<{ page: RevisionPageNode; parent?: RevisionPageNode; index: number }> {
  for (const [index, page] of pages.entries()) {
    yield { page, parent, index };
    yield* walkPages(page.children, page);
  }
}

export function findPage(pages: readonly RevisionPageNode[], pred: (p: RevisionPageNode) => boolean): RevisionPageNode | undefined {
  for (const { page } of walkPages(pages)) if (pred(page)) return page;
  return undefined;
}

export type PageWithoutId = Omit<RevisionPageNode, 'id' | 'children'> & { children: PageWithoutId[] };

/**
 * Gives every page of a new tree an id: the id of the page at the same path in the parent
 * revision (then the same markdown file, for pages whose slug changed), or a new one.
 */
export function assignPageIds(next: readonly PageWithoutId[], previous: readonly RevisionPageNode[], newId: () => string): RevisionPageNode[] {
  const byPath = new Map<string, string>();
  const byFile = new Map<string, string>();
  for (const { page } of walkPages(previous)) {
    if (page.path) byPath.set(`${page.kind}:${page.path}`, page.id);
    if (page.file) byFile.set(page.file, page.id);
  }
  const used = new Set<string>();
  const take = (id: string | undefined) => (id && !used.has(id) ? (used.add(id), id) : undefined);
  const assign = (pages: readonly PageWithoutId[]): RevisionPageNode[] =>
    pages.map((p) => {
      const id =
        (p.path ? take(byPath.get(`${p.kind}:${p.path}`)) : undefined) ??
        (p.file ? take(byFile.get(p.file)) : undefined) ??
        take(newId())!;
      return { ...p, id, children: assign(p.children) };
    });
  return assign(next);
}
