import { badRequest, notFound } from '@quire/domain';
import { firstSheet } from '../gitsync/first-sheet';
import { slugFromFileName, slugify } from '../gitsync/slugify';
import type { JSONDocument } from '../markdown';
import { documentToMarkdown } from '../markdown/document-to-markdown';
import { assertWithinPageLimits, type PageLimits } from './page-limits';
import { markdownToDocument } from '../markdown/markdown-to-document';
import { clonePages, cloneEditable, containsPage, EditablePage, EditableRevision, locatePage, walkEditable } from './editable-revision';
import { applyMetadata, joinPageText, leadingHeading, PageMetadataInput, splitPageText, withHeading } from './page-text';

/** A page body as GitBook's `Document` takes it: markdown, a JSON document, or nothing. */
export type DocumentInput = { markdown: string } | { document: JSONDocument } | Record<string, never>;

export type InsertPageChange = PageMetadataInput & { operation: 'insert_page'; document: DocumentInput; into?: string; at?: number; ref?: string };
export type UpdatePageChange = PageMetadataInput & { operation: 'update_page'; page: string; document?: DocumentInput; into?: string | null; at?: number };
export interface DeletePageChange {
  operation: 'delete_page';
  page: string;
}
export interface RevertPageChange {
  operation: 'revert_page';
  page: string;
  revision?: string;
  block?: string[];
}
/** Files arrive with their bytes: fetching a `url` is the caller's job (it checks the address). */
export interface InsertFilesChange {
  operation: 'insert_files';
  files: Array<{ name: string; ref?: string; contentType?: string; bytes: Uint8Array }>;
}

/** GitBook's ChangeRequestContentChange. */
export type ContentChange = InsertPageChange | UpdatePageChange | DeletePageChange | RevertPageChange | InsertFilesChange;

export type ContentChangeOutcome =
  | { object: 'created_page'; pageId: string; ref?: string }
  | { object: 'updated_page'; pageId: string }
  | { object: 'deleted_page'; pageId: string };

export interface InsertedFile {
  id: string;
  /** Repository path. */
  path: string;
  name: string;
  contentType?: string;
  ref?: string;
}

/** The revision a revert goes back to; pages' texts are read through `text`. */
export interface RevertSource {
  pages: EditablePage[];
  text(page: EditablePage): Promise<string>;
}

export interface ApplyContext {
  newId(): string;
  /** The current text of a page of the revision being edited. */
  text(page: EditablePage): Promise<string>;
  /** The revision named by `revision_page.revision`, or the change request's base when absent; undefined when unknown. */
  revertSource(revision?: string): Promise<RevertSource | undefined>;
  /** What a page written by the batch may hold. */
  limits: PageLimits;
}

export interface AppliedChanges {
  revision: EditableRevision;
  /** One entry per affected page, in the order pages were first touched. */
  outcomes: ContentChangeOutcome[];
  insertedFiles: InsertedFile[];
  /** Pages whose text came from this batch: their links are resolved once the layout is known. */
  written: Set<string>;
  /** Batch-local names: `ref` -> page id, and `ref` -> repository path of an inserted file. */
  pageRefs: Map<string, string>;
  fileRefs: Map<string, string>;
}

const DEFAULT_TITLE = 'Untitled';

/**
 * Applies GitBook's batch of content changes to a revision, in order, in memory. Any invalid
 * change fails the whole batch (DomainError: 400 bad input, 404 unknown page) before anything
 * is written: the caller commits the result as one revision.
 */
export async function applyContentChanges(target: EditableRevision, changes: readonly ContentChange[], ctx: ApplyContext): Promise<AppliedChanges> {
  const revision = cloneEditable(target);
  const outcomes = new Map<string, ContentChangeOutcome>();
  const insertedFiles: InsertedFile[] = [];
  const written = new Set<string>();
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const existingPaths = new Set([...pagePaths(revision.pages)]);
  /** Pages given a slug by this batch -> the change that did it. */
  const slugSetBy = new Map<string, string>();

  const touch = (outcome: ContentChangeOutcome) => {
    const previous = outcomes.get(outcome.pageId);
    if (outcome.object === 'updated_page' && previous) return;
    if (outcome.object === 'deleted_page' && previous?.object === 'created_page') {
      outcomes.delete(outcome.pageId);
      return;
    }
    if (previous) outcomes.delete(outcome.pageId);
    outcomes.set(outcome.pageId, outcome);
  };
  const claimRef = (ref: string, where: string) => {
    if (pageRefs.has(ref) || fileRefs.has(ref)) throw badRequest(`${where}: ref "${ref}" is used twice in this batch`);
    if (existingPaths.has(ref.replace(/\.md$/, ''))) throw badRequest(`${where}: ref "${ref}" is the path of an existing page`);
  };

  for (const [i, change] of changes.entries()) {
    const where = `changes[${i}] (${change.operation})`;
    switch (change.operation) {
      case 'insert_page': {
        if (change.ref !== undefined) claimRef(change.ref, where);
        const siblings = change.into === undefined ? revision.pages : childrenOf(revision.pages, change.into, where);
        const { text, title } = composeText(change.document, change, {}, undefined, where);
        assertWithinPageLimits(text, ctx.limits, where);
        let slug: string;
        if (change.slug !== undefined) {
          slug = validSlug(change.slug, where);
          assertSlugFree(siblings, slug, undefined, where);
        } else {
          slug = uniqueSlug(siblings, slugify(title) || 'untitled');
        }
        const page: EditablePage = { id: ctx.newId(), kind: 'sheet', title, slug, markdown: text, children: [] };
        if (change.slug !== undefined) slugSetBy.set(page.id, where);
        siblings.splice(change.at === undefined ? siblings.length : Math.min(change.at, siblings.length), 0, page);
        written.add(page.id);
        if (change.ref !== undefined) pageRefs.set(change.ref, page.id);
        touch({ object: 'created_page', pageId: page.id, ...(change.ref !== undefined ? { ref: change.ref } : {}) });
        break;
      }
      case 'update_page': {
        const found = locatePage(revision.pages, change.page);
        if (!found) throw notFound(`${where}: page ${change.page} not found in the change request`);
        const { page } = found;
        if (page.kind !== 'sheet') {
          if (change.document !== undefined) throw badRequest(`${where}: page ${page.id} is a ${page.kind}, which has no document`);
          if (change.title !== undefined) page.title = change.title;
        } else {
          const current = await ctx.text(page);
          const updated = change.document !== undefined
            ? composeText(change.document, change, splitPageText(current).frontMatter, page.title, where)
            : retitle(current, change, page.title);
          if (change.document !== undefined) assertWithinPageLimits(updated.text, ctx.limits, where);
          if (updated.text !== current) {
            page.markdown = updated.text;
            delete page.blob;
          }
          page.title = updated.title;
          if (change.document !== undefined) written.add(page.id);
        }
        if (change.into !== undefined || change.at !== undefined) move(revision.pages, page, change.into, change.at, where);
        if (change.slug !== undefined) {
          const slug = validSlug(change.slug, where);
          if (slug !== page.slug) {
            assertSlugFree(locatePage(revision.pages, page.id)!.siblings, slug, page.id, where);
            page.slug = slug;
          }
          slugSetBy.set(page.id, where);
        }
        touch({ object: 'updated_page', pageId: page.id });
        break;
      }
      case 'delete_page': {
        const found = locatePage(revision.pages, change.page);
        if (!found) throw notFound(`${where}: page ${change.page} not found in the change request`);
        found.siblings.splice(found.index, 1);
        for (const { page } of walkEditable([found.page])) touch({ object: 'deleted_page', pageId: page.id });
        break;
      }
      case 'revert_page': {
        const source = await ctx.revertSource(change.revision);
        if (!source) throw notFound(`${where}: revision ${change.revision} not found in this space`);
        const outcome = await revert(revision, source, change, ctx, where);
        for (const o of outcome) touch(o);
        break;
      }
      case 'insert_files': {
        for (const file of change.files) {
          if (file.ref !== undefined) claimRef(file.ref, where);
          const name = uniqueFileName(revision, assetName(file.name, where));
          const path = `${revision.docsRoot}.gitbook/assets/${name}`;
          const id = ctx.newId();
          revision.otherFiles.set(path, file.bytes);
          revision.fileIds.set(path, id);
          if (file.ref !== undefined) fileRefs.set(file.ref, path);
          insertedFiles.push({ id, path, name, ...(file.contentType ? { contentType: file.contentType } : {}), ...(file.ref !== undefined ? { ref: file.ref } : {}) });
        }
        break;
      }
    }
  }
  if (![...walkEditable(revision.pages)].some(({ page }) => page.kind === 'sheet')) {
    throw badRequest('A space keeps at least one page: this batch would delete them all');
  }
  assertFirstPageSlug(revision.pages, slugSetBy);
  return { revision, outcomes: [...outcomes.values()], insertedFiles, written, pageRefs, fileRefs };
}

/**
 * The space's first page is `README.md` in the git-sync layout, and its slug is read back
 * from its title: a slug set on it that differs would be dropped without a word, so it is
 * refused.
 */
function assertFirstPageSlug(pages: readonly EditablePage[], slugSetBy: ReadonlyMap<string, string>): void {
  const first = firstSheet(pages);
  const where = first && slugSetBy.get(first.id);
  if (!first || !where) return;
  const derived = slugify(first.title) || 'untitled';
  if (first.slug !== derived) {
    throw badRequest(
      `${where}: the space's first page is README.md in the git-sync layout and takes its slug from its title ("${derived}"); its slug cannot be set to "${first.slug}"`,
    );
  }
}

/** The text and title of a page written from a `Document`; front matter and heading win over `title` (as Git Sync reads them). */
function composeText(document: DocumentInput, meta: PageMetadataInput, existing: Record<string, unknown>, fallbackTitle: string | undefined, where: string) {
  if ('markdown' in document && typeof document.markdown === 'string') {
    const parsed = splitPageText(document.markdown);
    const fmTitle = typeof parsed.frontMatter.title === 'string' && parsed.frontMatter.title.trim() ? parsed.frontMatter.title.trim() : undefined;
    const title = fmTitle ?? leadingHeading(parsed.body) ?? meta.title ?? fallbackTitle ?? DEFAULT_TITLE;
    const own = new Set(Object.keys(parsed.frontMatter));
    const base = { ...existing, ...parsed.frontMatter };
    const frontMatter = applyMetadata(base, meta, own) ?? base;
    return { title, text: joinPageText({ frontMatter, hasFrontMatter: true, body: withHeading(parsed.body, title) }) };
  }
  const title = meta.title ?? fallbackTitle ?? DEFAULT_TITLE;
  const frontMatter = applyMetadata(existing, meta) ?? existing;
  if ('document' in document && document.document) {
    const doc = document.document as JSONDocument;
    if (doc.object !== 'document' || !Array.isArray(doc.nodes)) throw badRequest(`${where}: document must be a JSON document ({object: "document", nodes: [...]})`);
    try {
      return { title, text: documentToMarkdown(doc, { title, frontMatter: Object.keys(frontMatter).length ? frontMatter : undefined }) };
    } catch {
      // Only the top of a client's document is checked on the way in; a node below it that is
      // not what GitBook's schema gives (text leaves without marks, children that are not a
      // list, a block without its data) fails here, and is the client's to fix.
      throw badRequest(`${where}: document does not follow GitBook's document schema (a node's type, data, leaves or children are malformed)`);
    }
  }
  return { title, text: joinPageText({ frontMatter, hasFrontMatter: true, body: `# ${title}\n` }) };
}

/** Metadata-only update of a page's text: its heading (and front matter title) follow a new title. */
function retitle(current: string, meta: PageMetadataInput, title: string): { text: string; title: string } {
  const parsed = splitPageText(current);
  const nextTitle = meta.title ?? title;
  let frontMatter = applyMetadata(parsed.frontMatter, meta);
  let body = parsed.body;
  if (meta.title !== undefined) {
    body = withHeading(body, meta.title);
    if (typeof parsed.frontMatter.title === 'string') frontMatter = { ...(frontMatter ?? parsed.frontMatter), title: meta.title };
  }
  if (!frontMatter && body === parsed.body) return { text: current, title: nextTitle };
  if (!frontMatter && !parsed.hasFrontMatter) return { text: body, title: nextTitle };
  if (!frontMatter) return { text: current.slice(0, current.length - parsed.body.length) + body, title: nextTitle };
  return { text: joinPageText({ frontMatter, hasFrontMatter: true, body }), title: nextTitle };
}

function childrenOf(pages: EditablePage[], parentId: string, where: string): EditablePage[] {
  const parent = locatePage(pages, parentId);
  if (!parent) throw notFound(`${where}: page ${parentId} (into) not found in the change request`);
  if (parent.page.kind === 'link') throw badRequest(`${where}: page ${parentId} is a link, which cannot hold pages`);
  return parent.page.children;
}

function move(pages: EditablePage[], page: EditablePage, into: string | null | undefined, at: number | undefined, where: string): void {
  const from = locatePage(pages, page.id)!;
  let siblings: EditablePage[];
  let sameParent: boolean;
  if (into === undefined) {
    siblings = from.siblings;
    sameParent = true;
  } else if (into === null) {
    siblings = pages;
    sameParent = from.parent === null;
  } else {
    if (containsPage(page, into)) throw badRequest(`${where}: a page cannot be moved under itself or one of its descendants`);
    siblings = childrenOf(pages, into, where);
    sameParent = from.parent?.id === into;
  }
  if (page.kind === 'group' && siblings !== pages) throw badRequest(`${where}: groups exist only at the root`);
  from.siblings.splice(from.index, 1);
  const index = at === undefined ? (sameParent ? from.index : siblings.length) : Math.min(at, siblings.length);
  siblings.splice(index, 0, page);
}

/** Slugs name files in the git-sync layout: they are kept in the form a file name reads back as. */
function validSlug(slug: string, where: string): string {
  const clean = slugFromFileName(slug);
  if (!clean) throw badRequest(`${where}: slug "${slug}" is not a valid slug`);
  return clean;
}

function assertSlugFree(siblings: EditablePage[], slug: string, self: string | undefined, where: string): void {
  if (siblings.some((s) => s.id !== self && s.kind !== 'link' && s.slug === slug)) throw badRequest(`${where}: slug "${slug}" is already used by a sibling page`);
}

function uniqueSlug(siblings: EditablePage[], slug: string): string {
  const taken = new Set(siblings.filter((s) => s.kind !== 'link').map((s) => s.slug));
  let candidate = slug;
  for (let n = 1; taken.has(candidate); n++) candidate = `${slug}-${n}`;
  return candidate;
}

function* pagePaths(pages: readonly EditablePage[], prefix = ''): Generator<string> {
  for (const page of pages) {
    if (page.kind === 'link') continue;
    const path = prefix ? `${prefix}/${page.slug}` : page.slug;
    yield path;
    yield* pagePaths(page.children, path);
  }
}

function assetName(name: string, where: string): string {
  const clean = name.trim();
  if (!clean || clean === '.' || clean === '..' || /[/\\\0]/.test(clean)) throw badRequest(`${where}: "${name}" is not a valid file name`);
  return clean;
}

/** `image.png`, then `image (1).png`... as GitBook names uploads that share a name. */
function uniqueFileName(revision: EditableRevision, name: string): string {
  const dir = `${revision.docsRoot}.gitbook/assets/`;
  if (!revision.otherFiles.has(dir + name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!revision.otherFiles.has(dir + candidate)) return candidate;
  }
}

/**
 * revert_page: without `block`, the page goes back to what it was in the source revision
 * (restored when deleted, removed when added, its text, title and place reset); with `block`,
 * only those blocks of its document are reset.
 */
async function revert(revision: EditableRevision, source: RevertSource, change: RevertPageChange, ctx: ApplyContext, where: string): Promise<ContentChangeOutcome[]> {
  const current = locatePage(revision.pages, change.page);
  const before = locatePage(source.pages, change.page);
  if (!current && !before) throw notFound(`${where}: page ${change.page} not found in the change request`);

  if (change.block !== undefined) {
    if (!current || !before) throw badRequest(`${where}: blocks can only be reverted on a page that exists on both sides`);
    if (current.page.kind !== 'sheet') throw badRequest(`${where}: page ${change.page} has no document`);
    const text = await revertBlocks(await ctx.text(current.page), await source.text(before.page), change.block, where);
    current.page.markdown = text;
    delete current.page.blob;
    return [{ object: 'updated_page', pageId: current.page.id }];
  }

  if (!before) {
    current!.siblings.splice(current!.index, 1);
    return [...walkEditable([current!.page])].map(({ page }) => ({ object: 'deleted_page' as const, pageId: page.id }));
  }
  const present = new Set([...walkEditable(revision.pages)].map(({ page }) => page.id));
  const restoredParent = before.parent && present.has(before.parent.id) ? locatePage(revision.pages, before.parent.id)!.page : null;
  if (current) {
    const { page } = current;
    page.kind = before.page.kind;
    page.title = before.page.title;
    page.slug = before.page.slug;
    page.linkTitle = before.page.linkTitle;
    page.href = before.page.href;
    page.blob = before.page.blob;
    page.markdown = before.page.markdown;
    if (!before.parent || restoredParent) {
      current.siblings.splice(current.index, 1);
      const siblings = restoredParent ? restoredParent.children : revision.pages;
      siblings.splice(Math.min(before.index, siblings.length), 0, page);
    }
    return [{ object: 'updated_page', pageId: page.id }];
  }
  // Deleted in the change request: it comes back with those of its subpages that are gone too.
  const restore = (page: EditablePage): EditablePage => ({ ...page, children: page.children.filter((c) => !present.has(c.id)).map(restore) });
  const restored = restore(clonePages([before.page])[0]);
  const siblings = restoredParent ? restoredParent.children : revision.pages;
  siblings.splice(Math.min(before.index, siblings.length), 0, restored);
  return [...walkEditable([restored])].map(({ page }) => ({ object: 'created_page' as const, pageId: page.id }));
}

async function revertBlocks(currentText: string, sourceText: string, keys: string[], where: string): Promise<string> {
  const current = markdownToDocument(currentText);
  const source = markdownToDocument(sourceText);
  const nodes = [...current.document.nodes];
  const before = source.document.nodes;
  const currentKeys = new Set(nodes.map((n) => n.key));
  for (const key of keys) {
    const here = nodes.findIndex((n) => n.key === key);
    let there = before.findIndex((n) => n.key === key);
    if (here < 0 && there < 0) throw badRequest(`${where}: block ${key} is in neither version of the page`);
    // Keys follow a block's start: a block edited at its start has a new key. The block of the
    // same type at the same place, whose key is gone, is the one it was.
    if (here >= 0 && there < 0 && before[here]?.type === nodes[here].type && !currentKeys.has(before[here].key)) there = here;
    if (here >= 0 && there >= 0) nodes[here] = before[there];
    else if (here >= 0) nodes.splice(here, 1);
    else nodes.splice(Math.min(there, nodes.length), 0, before[there]);
  }
  const frontMatter = current.frontMatter && Object.keys(current.frontMatter).length ? current.frontMatter : undefined;
  return documentToMarkdown({ ...current.document, nodes }, { frontMatter, title: current.title });
}
