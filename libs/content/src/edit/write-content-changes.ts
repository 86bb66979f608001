import { RevisionCreated, RevisionKind } from '@quire/domain';
import type { ContentStore } from '../store';
import { applyContentChanges, ApplyContext, ContentChange, ContentChangeOutcome, InsertedFile } from './apply-content-changes';
import { commitEditedRevision } from './commit-edited-revision';
import { EditableRevision, pageText } from './editable-revision';
import { apiPaths, resolveLinks } from './resolve-links';

export interface WriteContentChangesOptions {
  store: ContentStore;
  /** The revision the batch applies to (a change request's head). */
  revision: EditableRevision;
  changes: readonly ContentChange[];
  revertSource: ApplyContext['revertSource'];
  limits: ApplyContext['limits'];
  parents: string[];
  /** `edits` unless said (a restore is a `rollback`), with its own commit message. */
  kind?: RevisionKind;
  message?: string;
  changeRequestId?: string;
  createdBy?: string;
  author: { name: string; email: string };
  now: Date;
  newId: () => string;
}

export interface WrittenContentChanges {
  event: RevisionCreated;
  outcomes: ContentChangeOutcome[];
  insertedFiles: InsertedFile[];
}

/**
 * GitBook's content batch, end to end: applies the changes in memory (all or nothing), lays
 * the result out, resolves the links of the pages the batch wrote, and writes one commit.
 * Nothing is recorded here: the caller appends the returned RevisionCreated.
 */
export async function writeContentChanges(opts: WriteContentChangesOptions): Promise<WrittenContentChanges> {
  const { store } = opts;
  const applied = await applyContentChanges(opts.revision, opts.changes, {
    newId: opts.newId,
    text: (page) => pageText(store, opts.revision.spaceId, page),
    revertSource: opts.revertSource,
    limits: opts.limits,
  });
  const fileById = new Map([...applied.revision.fileIds].map(([path, id]) => [id, path]));
  const event = await commitEditedRevision({
    store,
    revision: applied.revision,
    parents: opts.parents,
    kind: opts.kind ?? 'edits',
    message: opts.message ?? `Edit ${applied.outcomes.length} page(s)`,
    author: opts.author,
    changeRequestId: opts.changeRequestId,
    createdBy: opts.createdBy,
    now: opts.now,
    newId: opts.newId,
    rewrite: ({ pathById, files }) => {
      const changed = new Set<string>();
      if (applied.written.size === 0) return changed;
      const targets = {
        pathById,
        idByApiPath: apiPaths(applied.revision.pages),
        fileById,
        pageRefs: applied.pageRefs,
        fileRefs: applied.fileRefs,
        readmePath: `${applied.revision.docsRoot}README.md`,
      };
      for (const id of applied.written) {
        const path = pathById[id];
        if (!path || files[path] === undefined) continue;
        const text = resolveLinks(files[path], path, targets);
        if (text !== files[path]) {
          files[path] = text;
          changed.add(path);
        }
      }
      return changed;
    },
  });
  return { event, outcomes: applied.outcomes, insertedFiles: applied.insertedFiles };
}
