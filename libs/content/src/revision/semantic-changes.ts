import { isDeepStrictEqual } from 'util';
import { RevisionFileNode, RevisionPageNode, walkPages } from '@quire/domain';

/** A revision's tree as the content read model holds it. */
export interface RevisionTreeNodes {
  pages: readonly RevisionPageNode[];
  files: readonly RevisionFileNode[];
}

/** A value before and after a change; a side is absent when the page had none there. */
export interface AttributeChange<T> {
  before?: T;
  after?: T;
}

/** What changed in a page, by attribute (GitBook's RevisionPage*ChangeAttributes). `document` names the page's body (its blob). */
export interface PageAttributeChanges {
  title?: AttributeChange<string>;
  description?: AttributeChange<string>;
  slug?: AttributeChange<string>;
  document?: AttributeChange<string>;
  emoji?: AttributeChange<string>;
  cover?: AttributeChange<NonNullable<RevisionPageNode['cover']>>;
  layout?: AttributeChange<NonNullable<RevisionPageNode['layout']>>;
  target?: AttributeChange<string>;
}

export interface FileAttributeChanges {
  name?: AttributeChange<string>;
  size?: AttributeChange<number>;
  contentType?: AttributeChange<string>;
  dimensions?: AttributeChange<{ width: number; height: number }>;
}

/**
 * GitBook's RevisionSemanticChange, with the page or file as this side has it (the page after
 * a change, before a deletion); `parent` of a move is each side's parent page (none: at the root).
 */
export type SemanticChange =
  | { type: 'page_created'; page: RevisionPageNode }
  | { type: 'page_edited'; page: RevisionPageNode; attributes: PageAttributeChanges }
  | { type: 'page_deleted'; page: RevisionPageNode }
  | { type: 'page_moved'; page: RevisionPageNode; parent: { before?: RevisionPageNode; after?: RevisionPageNode } }
  | { type: 'file_created'; file: RevisionFileNode }
  | { type: 'file_edited'; file: RevisionFileNode; attributes: FileAttributeChanges }
  | { type: 'file_deleted'; file: RevisionFileNode };

interface Located {
  page: RevisionPageNode;
  parent?: RevisionPageNode;
}

/**
 * The semantic changes from one revision's tree to another's, matched by page and file id (ids
 * are stable across revisions): pages created, edited (which attributes), moved (to another
 * parent) and deleted, then files created, edited and deleted. Pages come in the order of the
 * tree that has them (the new tree, then the old one for deletions). A page both moved and
 * edited gives both changes.
 */
export function semanticChanges(before: RevisionTreeNodes, after: RevisionTreeNodes): SemanticChange[] {
  const old = index(before.pages);
  const now = index(after.pages);
  const changes: SemanticChange[] = [];
  for (const [id, { page, parent }] of now) {
    const was = old.get(id);
    if (!was) {
      changes.push({ type: 'page_created', page });
      continue;
    }
    const attributes = pageAttributeChanges(was.page, page);
    if (Object.keys(attributes).length > 0) changes.push({ type: 'page_edited', page, attributes });
    if (was.parent?.id !== parent?.id) changes.push({ type: 'page_moved', page, parent: { before: was.parent, after: parent } });
  }
  for (const [id, { page }] of old) if (!now.has(id)) changes.push({ type: 'page_deleted', page });

  const oldFiles = new Map(before.files.map((f) => [f.id, f]));
  const newFiles = new Set(after.files.map((f) => f.id));
  for (const file of after.files) {
    const was = oldFiles.get(file.id);
    if (!was) changes.push({ type: 'file_created', file });
    else if (was.blob !== file.blob || was.name !== file.name || was.contentType !== file.contentType) {
      changes.push({ type: 'file_edited', file, attributes: fileAttributeChanges(was, file) });
    }
  }
  for (const file of before.files) if (!newFiles.has(file.id)) changes.push({ type: 'file_deleted', file });
  return changes;
}

function index(pages: readonly RevisionPageNode[]): Map<string, Located> {
  const out = new Map<string, Located>();
  for (const { page, parent } of walkPages(pages)) out.set(page.id, { page, parent });
  return out;
}

function pageAttributeChanges(a: RevisionPageNode, b: RevisionPageNode): PageAttributeChanges {
  const out: PageAttributeChanges = {};
  const compare = <K extends keyof PageAttributeChanges>(key: K, x: PageAttributeChanges[K] extends AttributeChange<infer T> | undefined ? T | undefined : never, y: typeof x) => {
    if (!isDeepStrictEqual(x, y)) out[key] = { ...(x !== undefined ? { before: x } : {}), ...(y !== undefined ? { after: y } : {}) } as PageAttributeChanges[K];
  };
  compare('title', a.title, b.title);
  compare('emoji', a.emoji, b.emoji);
  if (b.kind !== 'link') compare('slug', a.slug, b.slug);
  if (b.kind === 'sheet') {
    compare('description', a.description, b.description);
    compare('document', a.blob, b.blob);
    compare('cover', a.cover, b.cover);
    compare('layout', a.layout, b.layout);
  }
  if (b.kind === 'link') compare('target', a.href, b.href);
  return out;
}

function fileAttributeChanges(a: RevisionFileNode, b: RevisionFileNode): FileAttributeChanges {
  const out: FileAttributeChanges = {};
  if (a.name !== b.name) out.name = { before: a.name, after: b.name };
  if (a.contentType !== b.contentType) out.contentType = { before: a.contentType, after: b.contentType };
  const dims = (f: RevisionFileNode) => (f.width && f.height ? { width: f.width, height: f.height } : undefined);
  if (!isDeepStrictEqual(dims(a), dims(b))) out.dimensions = { ...(dims(a) ? { before: dims(a) } : {}), ...(dims(b) ? { after: dims(b) } : {}) };
  // New bytes: the size says so even when it happens to be the same (attributes are never empty).
  if (a.size !== b.size || Object.keys(out).length === 0) out.size = { before: a.size, after: b.size };
  return out;
}
