import { RevisionCreated, RevisionKind, RevisionPageNode, RevisionFileNode, RevisionGitInfo } from '@quire/domain';
import { ContentStore } from '../store';
import { deriveRevision } from './derive-revision';

/**
 * The RevisionCreated event for a commit already written to the space's repository: its tree
 * derived from the files, page ids carried over from `previous`.
 */
export async function revisionCreatedFor(opts: {
  store: ContentStore;
  spaceId: string;
  revision: string;
  parents: string[];
  kind: RevisionKind;
  previous?: { pages: RevisionPageNode[]; files: RevisionFileNode[] };
  changeRequestId?: string;
  git?: RevisionGitInfo;
  mergedFrom?: string;
  createdBy?: string;
  now: Date;
  newId: () => string;
}): Promise<{ event: RevisionCreated; warnings: string[] }> {
  const derived = await deriveRevision({ store: opts.store, spaceId: opts.spaceId, revision: opts.revision, previous: opts.previous, newId: opts.newId });
  const data: RevisionCreated['data'] = {
    spaceId: opts.spaceId,
    revision: opts.revision,
    parents: opts.parents,
    kind: opts.kind,
    pages: derived.pages,
    files: derived.files,
    createdAt: opts.now.toISOString(),
  };
  if (opts.changeRequestId) data.changeRequestId = opts.changeRequestId;
  if (opts.git) data.git = opts.git;
  if (opts.mergedFrom) data.mergedFrom = opts.mergedFrom;
  if (opts.createdBy) data.createdBy = opts.createdBy;
  return { event: { type: 'RevisionCreated', data }, warnings: derived.warnings };
}
