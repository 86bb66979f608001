import { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { writeGitSyncLayout, type PageToWrite } from '../gitsync';
import { readGitSyncConfig } from '../gitsync/gitbook-config';
import { findFileIgnoringCase } from '../gitsync/repo-path';
import type { SourceTree } from '../gitsync/source-tree';
import type { ContentStore, RevisionFileInput } from '../store';

/** A page of a revision being edited or merged; ids are the domain's stable page ids. */
export interface EditablePage {
  id: string;
  kind: 'sheet' | 'group' | 'link';
  title: string;
  slug: string;
  linkTitle?: string;
  href?: string;
  /** The page file's blob, while its text is the stored one. */
  blob?: string;
  /** The page file's whole text (front matter and body), once it changed. */
  markdown?: string;
  /** The page file's repository path in the revision it was loaded from: the layout keeps it
   * while it still names the page, so an edit moves no file (new pages get GitBook's layout). */
  file?: string;
  children: EditablePage[];
}

/**
 * A revision as a page tree plus every other file, ready to be changed in memory and laid out
 * again in GitBook's git-sync layout (commitEditedRevision). Page files and the table of
 * contents are not kept as files: the layout writes them from the tree.
 */
export interface EditableRevision {
  /** The commit it was loaded from. */
  revision: string;
  spaceId: string;
  /** '' or a directory prefix such as 'docs/' (from `.gitbook.yaml`). */
  docsRoot: string;
  pages: EditablePage[];
  /** Every file that is neither a page's markdown nor the summary, by repository path. */
  otherFiles: Map<string, RevisionFileInput>;
  /** Ids of the revision's files (assets), by repository path. */
  fileIds: Map<string, string>;
  /** The revision's own SUMMARY.md at the docs root, and the one the layout writes for its page
   * tree as loaded: while the layout writes that same text, the repository's bytes are kept. */
  summary?: { path: string; oid: string; laidOut: string };
}

export interface RevisionTree {
  revision: string;
  pages: RevisionPageNode[];
  files: RevisionFileNode[];
}

const decoder = new TextDecoder();

export async function loadEditableRevision(store: ContentStore, spaceId: string, tree: RevisionTree): Promise<EditableRevision> {
  const entries = await store.readRevisionFiles(spaceId, tree.revision);
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const source: SourceTree = {
    files: () => [...byPath.keys()],
    read: async (path) => {
      const entry = byPath.get(path);
      return entry ? store.readBlob(spaceId, entry.oid) : undefined;
    },
  };
  const config = await readGitSyncConfig(source, new Set(byPath.keys()));
  const dropped = new Set<string>();
  const walk = (pages: readonly RevisionPageNode[]) => {
    for (const page of pages) {
      if (page.file) dropped.add(page.file);
      walk(page.children);
    }
  };
  walk(tree.pages);
  const summary = findFileIgnoringCase(new Set(byPath.keys()), config.summaryPath);
  if (summary) dropped.add(summary);
  // A config naming other readme/summary files would point at files the layout no longer
  // writes; the layout writes a default one for its docs root instead.
  const defaultStructure = config.readmePath === `${config.docsRoot}README.md` && config.summaryPath === `${config.docsRoot}SUMMARY.md`;
  if (config.configPath && !defaultStructure) dropped.add(config.configPath);

  const otherFiles = new Map<string, RevisionFileInput>();
  for (const entry of entries) if (!dropped.has(entry.path)) otherFiles.set(entry.path, { oid: entry.oid, mode: entry.mode as any });
  const pages = tree.pages.map(toEditable);
  const summaryPath = `${config.docsRoot}SUMMARY.md`;
  const summaryEntry = summary === summaryPath ? byPath.get(summaryPath) : undefined;
  return {
    revision: tree.revision,
    spaceId,
    docsRoot: config.docsRoot,
    pages,
    otherFiles,
    fileIds: new Map(tree.files.map((f) => [f.file, f.id])),
    ...(summaryEntry ? { summary: { path: summaryPath, oid: summaryEntry.oid, laidOut: laidOutSummary(pages, config.docsRoot) } } : {}),
  };
}

function toEditable(page: RevisionPageNode): EditablePage {
  const out: EditablePage = { id: page.id, kind: page.kind, title: page.title, slug: page.slug, children: page.children.map(toEditable) };
  if (page.linkTitle) out.linkTitle = page.linkTitle;
  if (page.href !== undefined) out.href = page.href;
  if (page.blob) out.blob = page.blob;
  if (page.file) out.file = page.file;
  return out;
}

export function cloneEditable(revision: EditableRevision): EditableRevision {
  return {
    ...revision,
    pages: clonePages(revision.pages),
    otherFiles: new Map(revision.otherFiles),
    fileIds: new Map(revision.fileIds),
  };
}

export function clonePages(pages: readonly EditablePage[]): EditablePage[] {
  return pages.map((p) => ({ ...p, children: clonePages(p.children) }));
}

/** The page's current text: its edited markdown, or its stored blob. */
export async function pageText(store: ContentStore, spaceId: string, page: EditablePage): Promise<string> {
  if (page.markdown !== undefined) return page.markdown;
  if (!page.blob) return '';
  return decoder.decode(await store.readBlob(spaceId, page.blob));
}

export interface Located {
  page: EditablePage;
  /** null at the root. */
  parent: EditablePage | null;
  siblings: EditablePage[];
  index: number;
}

export function locatePage(pages: EditablePage[], id: string, parent: EditablePage | null = null): Located | undefined {
  for (let index = 0; index < pages.length; index++) {
    const page = pages[index];
    if (page.id === id) return { page, parent, siblings: pages, index };
    const inside = locatePage(page.children, id, page);
    if (inside) return inside;
  }
  return undefined;
}

export function* walkEditable(pages: readonly EditablePage[], parent: EditablePage | null = null): Generator<{ page: EditablePage; parent: EditablePage | null; index: number }> {
  for (let index = 0; index < pages.length; index++) {
    yield { page: pages[index], parent, index };
    yield* walkEditable(pages[index].children, pages[index]);
  }
}

export function containsPage(root: EditablePage, id: string): boolean {
  if (root.id === id) return true;
  return root.children.some((c) => containsPage(c, id));
}

/** The SUMMARY.md the git-sync layout writes for `pages` (under `docsRoot`). */
export function laidOutSummary(pages: readonly EditablePage[], docsRoot: string): string {
  return writeGitSyncLayout(pages.map(toWrite), { docsRoot: docsRoot || undefined }).files[`${docsRoot}SUMMARY.md`];
}

/** A page as the layout takes it. Unchanged pages keep their blob (commitEditedRevision); the
 * layout only needs their place. */
export function toWrite(page: EditablePage): PageToWrite {
  return {
    id: page.id,
    kind: page.kind,
    title: page.title,
    slug: page.slug,
    ...(page.linkTitle ? { linkTitle: page.linkTitle } : {}),
    ...(page.href !== undefined ? { href: page.href } : {}),
    ...(page.file ? { file: page.file } : {}),
    markdown: page.markdown ?? '',
    children: page.children.map(toWrite),
  };
}
