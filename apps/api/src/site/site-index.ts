import { posix } from 'path';
import { RevisionFileNode, RevisionPageNode } from '@quire/domain';

/** What rendering any page of one revision needs to know about the others; built once per revision. */
export interface SiteIndex {
  revision: string;
  pages: readonly RevisionPageNode[];
  /** The page served at the site's root: the first document of the tree. */
  first?: RevisionPageNode;
  byPath: Map<string, RevisionPageNode>;
  byId: Map<string, RevisionPageNode>;
  /** Pages by the git path of their markdown file, as links in markdown name them. */
  byFile: Map<string, RevisionPageNode>;
  filesByPath: Map<string, RevisionFileNode>;
  filesById: Map<string, RevisionFileNode>;
  parents: Map<string, RevisionPageNode | undefined>;
  /** Documents in reading order, hidden ones left out: previous / next. */
  readingOrder: RevisionPageNode[];
}

export function buildSiteIndex(revision: string, pages: readonly RevisionPageNode[], files: readonly RevisionFileNode[]): SiteIndex {
  const index: SiteIndex = {
    revision,
    pages,
    byPath: new Map(),
    byId: new Map(),
    byFile: new Map(),
    filesByPath: new Map(files.map((f) => [f.file, f])),
    filesById: new Map(files.map((f) => [f.id, f])),
    parents: new Map(),
    readingOrder: [],
  };
  const visit = (nodes: readonly RevisionPageNode[], parent: RevisionPageNode | undefined, hidden: boolean) => {
    for (const page of nodes) {
      index.byId.set(page.id, page);
      index.parents.set(page.id, parent);
      if (page.kind === 'sheet') {
        if (!index.byPath.has(page.path)) index.byPath.set(page.path, page);
        if (page.file) index.byFile.set(page.file, page);
        if (!index.first) index.first = page;
        if (!hidden && !page.hidden) index.readingOrder.push(page);
      }
      visit(page.children, page, hidden || !!page.hidden);
    }
  };
  visit(pages, undefined, false);
  return index;
}

/** The page's ancestors, outermost first (groups included). */
export function ancestorsOf(index: SiteIndex, pageId: string): RevisionPageNode[] {
  const out: RevisionPageNode[] = [];
  for (let p = index.parents.get(pageId); p; p = index.parents.get(p.id)) out.unshift(p);
  return out;
}

/** The first document at or below a node (a group's landing page). */
export function firstDocument(node: RevisionPageNode): RevisionPageNode | undefined {
  if (node.kind === 'sheet') return node;
  for (const child of node.children) {
    const found = firstDocument(child);
    if (found) return found;
  }
  return undefined;
}

export type ResolvedTarget = { kind: 'page'; page: RevisionPageNode; anchor?: string } | { kind: 'file'; file: RevisionFileNode } | { kind: 'anchor'; anchor: string };

/**
 * A relative URL as written in the markdown of the page stored at `fromFile` (links,
 * content-refs, images), resolved to a page or a file of the revision: relative to the page's
 * folder, with or without percent-decoding, `folder/` and `folder` meaning `folder/README.md`.
 * A leading `/` is the docs root, which is not always the repository root, so such a path
 * matches any file that ends with it. Some repositories were written for their web pages, with
 * links relative to the page's URL (`../other-page` from `guides/page`, read as a folder):
 * those are tried last, against page paths. Undefined when it names nothing in the revision.
 */
export function resolveRelative(index: SiteIndex, from: { file?: string; path?: string }, url: string): ResolvedTarget | undefined {
  const hash = url.indexOf('#');
  const anchor = hash >= 0 ? url.slice(hash + 1) : undefined;
  const target = (hash >= 0 ? url.slice(0, hash) : url).split('?')[0];
  if (target === '') return anchor ? { kind: 'anchor', anchor } : undefined;
  const spellings = new Set([target]);
  try {
    spellings.add(decodeURIComponent(target));
  } catch {
    /* not percent-encoded */
  }
  const dir = from.file ? posix.dirname(from.file) : '.';
  for (const spelling of spellings) {
    const absolute = spelling.startsWith('/');
    const base = absolute ? spelling.replace(/^\/+/, '') : posix.normalize(posix.join(dir, spelling));
    const candidates = [base, posix.join(base, 'README.md'), posix.join(base, 'readme.md'), `${base.replace(/\/+$/, '')}.md`].map((c) => c.replace(/^\.\//, ''));
    for (const candidate of candidates) {
      const page = index.byFile.get(candidate) ?? (absolute ? endsWith(index.byFile, candidate) : undefined);
      if (page) return { kind: 'page', page, anchor };
      const file = index.filesByPath.get(candidate) ?? (absolute ? endsWith(index.filesByPath, candidate) : undefined);
      if (file) return { kind: 'file', file };
    }
  }
  for (const spelling of spellings) {
    if (spelling.startsWith('/') || from.path === undefined) continue;
    const target = spelling.replace(/(\/README)?\.md$/i, '').replace(/\/+$/, '');
    for (const base of [from.path, posix.dirname(from.path)]) {
      const page = index.byPath.get(posix.normalize(posix.join(base, target)).replace(/^\.\/?/, ''));
      if (page) return { kind: 'page', page, anchor };
    }
  }
  return undefined;
}

function endsWith<T>(map: Map<string, T>, suffix: string): T | undefined {
  for (const [key, value] of map) if (key.endsWith(`/${suffix}`)) return value;
  return undefined;
}
