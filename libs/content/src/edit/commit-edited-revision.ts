import { RevisionCreated, RevisionFileNode, RevisionKind, RevisionPageNode } from '@quire/domain';
import { writeGitSyncLayout } from '../gitsync';
import { revisionCreatedFor } from '../revision/record-revision';
import type { ContentStore, RevisionFileInput } from '../store';
import { toWrite, type EditablePage, type EditableRevision } from './editable-revision';

export interface CommitEditedRevisionOptions {
  store: ContentStore;
  revision: EditableRevision;
  parents: string[];
  kind: RevisionKind;
  message: string;
  author: { name: string; email: string };
  changeRequestId?: string;
  mergedFrom?: string;
  createdBy?: string;
  now: Date;
  newId: () => string;
  /** Rewrites the text of pages once their repository paths are known (link resolution); returns the paths it changed. */
  rewrite?: (layout: { pathById: Record<string, string>; files: Record<string, string> }) => ReadonlySet<string>;
}

const encoder = new TextEncoder();

/**
 * Lays an edited revision out in GitBook's git-sync layout, writes it as one commit and
 * returns its RevisionCreated. Pages whose text did not change keep their blob, pages keep
 * their files' paths while those still name them, and SUMMARY.md keeps its bytes while the
 * table of contents is unchanged. The tree is
 * read back from the commit (so events always agree with the bytes), and every page keeps
 * the id it has here, whatever its new path: the layout round-trips the tree's shape, so ids
 * are carried over position by position.
 */
export async function commitEditedRevision(opts: CommitEditedRevisionOptions): Promise<RevisionCreated> {
  const { revision } = opts;
  const layout = writeGitSyncLayout(revision.pages.map(toWrite), { docsRoot: revision.docsRoot || undefined });
  const rewritten = opts.rewrite?.(layout) ?? new Set<string>();
  const pageByPath = new Map<string, EditablePage>();
  const index = (pages: readonly EditablePage[]) => {
    for (const page of pages) {
      const path = layout.pathById[page.id];
      if (path) pageByPath.set(path, page);
      index(page.children);
    }
  };
  index(revision.pages);

  const files: Record<string, RevisionFileInput> = {};
  for (const [path, file] of revision.otherFiles) files[path] = file;
  for (const [path, text] of Object.entries(layout.files)) {
    // A kept `.gitbook.yaml` already says where the docs are (and holds redirects).
    if (path === '.gitbook.yaml' && revision.otherFiles.has(path)) continue;
    // The table of contents did not change: the repository's SUMMARY.md keeps its bytes (its
    // groups, titles and link form), as GitBook keeps them.
    if (revision.summary?.path === path && revision.summary.laidOut === text) {
      files[path] = { oid: revision.summary.oid };
      continue;
    }
    const page = pageByPath.get(path);
    files[path] = page?.blob && page.markdown === undefined && !rewritten.has(path) ? { oid: page.blob } : encoder.encode(text);
  }
  const commit = await opts.store.writeRevision({
    spaceId: revision.spaceId,
    parents: opts.parents,
    files,
    message: opts.message,
    author: opts.author,
    timestamp: opts.now,
  });

  // Ids by file first (what derive matches on), then by position for what files do not name.
  const previous = {
    pages: revision.pages.map((p) => byFile(p, layout.pathById)),
    files: [...revision.fileIds].map(([file, id]) => ({ id, file }) as RevisionFileNode),
  };
  const { event } = await revisionCreatedFor({
    store: opts.store,
    spaceId: revision.spaceId,
    revision: commit,
    parents: opts.parents,
    kind: opts.kind,
    previous,
    changeRequestId: opts.changeRequestId,
    mergedFrom: opts.mergedFrom,
    createdBy: opts.createdBy,
    now: opts.now,
    newId: opts.newId,
  });
  if (sameShape(event.data.pages, revision.pages)) carryIds(event.data.pages, revision.pages);
  return event;
}

function byFile(page: EditablePage, pathById: Record<string, string>): RevisionPageNode {
  return {
    id: page.id,
    kind: page.kind,
    title: page.title,
    slug: page.slug,
    path: '',
    ...(pathById[page.id] ? { file: pathById[page.id] } : {}),
    children: page.children.map((c) => byFile(c, pathById)),
  };
}

function sameShape(derived: readonly RevisionPageNode[], intended: readonly EditablePage[]): boolean {
  return derived.length === intended.length && derived.every((d, i) => d.kind === intended[i].kind && sameShape(d.children, intended[i].children));
}

function carryIds(derived: RevisionPageNode[], intended: readonly EditablePage[]): void {
  derived.forEach((d, i) => {
    d.id = intended[i].id;
    carryIds(d.children, intended[i].children);
  });
}
