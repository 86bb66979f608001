import { DomainEvent } from '../shared/event';
import { RevisionFileNode, RevisionPageNode } from './page-tree';

/** How a revision came to be (GitBook's Revision.type, plus `import` and `initial`, shown as `edits`). */
export type RevisionKind = 'initial' | 'edits' | 'merge' | 'update' | 'import' | 'rollback';

export interface RevisionGitInfo {
  oid: string;
  message: string;
  url?: string;
  ref?: string;
}

/**
 * A new immutable revision: a commit in the space's git repository and the page tree it
 * holds (page ids assigned here, stable across revisions). Recorded in the space stream for
 * live revisions and in the change request's stream for its own.
 */
export type RevisionCreated = DomainEvent<
  'RevisionCreated',
  {
    spaceId: string;
    changeRequestId?: string;
    /** The commit id; revisions are commits. */
    revision: string;
    parents: string[];
    kind: RevisionKind;
    pages: RevisionPageNode[];
    files: RevisionFileNode[];
    git?: RevisionGitInfo;
    mergedFrom?: string;
    /** A restore (kind `rollback`): the revision whose content, or one page of it, became live again. */
    restoredFrom?: { revision: string; page?: string };
    createdBy?: string;
    createdAt: string;
  }
>;

/** A revision's page tree and files, as its RevisionCreated recorded them. */
export interface RecordedRevisionTree {
  revision: string;
  pages: RevisionPageNode[];
  files: RevisionFileNode[];
}

/**
 * The trees of the revisions a stream created, by revision id: what carries page ids over and
 * what merges start from. Kept out of aggregate states, which would copy them at every event.
 */
export function revisionTrees(events: Iterable<DomainEvent>): Map<string, RecordedRevisionTree> {
  const trees = new Map<string, RecordedRevisionTree>();
  for (const e of events) {
    if (e.type !== 'RevisionCreated') continue;
    const d = e.data as RevisionCreated['data'];
    trees.set(d.revision, { revision: d.revision, pages: d.pages, files: d.files });
  }
  return trees;
}
