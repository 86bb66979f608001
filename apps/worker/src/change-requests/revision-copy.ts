import { RecordedRevisionTree, RevisionCreated } from '@quire/domain';
import { commitAuthor } from '@quire/content/edit';
import { ContentStore } from '@quire/content/store';
import { ChangeRequestJob } from '@quire/jobs/change-request.job';

/**
 * A new commit with another revision's files (by blob) and its page tree as is: a fast-forward
 * merge, or an update of a change request that has nothing of its own yet.
 */
export async function copyRevision(
  content: ContentStore,
  job: ChangeRequestJob,
  tree: RecordedRevisionTree,
  opts: { parents: string[]; kind: 'merge' | 'update'; message: string; now: Date },
): Promise<RevisionCreated> {
  const files = await content.readRevisionFiles(job.spaceId, tree.revision);
  const commit = await content.writeRevision({
    spaceId: job.spaceId,
    parents: opts.parents,
    files: Object.fromEntries(files.map((f) => [f.path, { oid: f.oid, mode: f.mode as any }])),
    message: opts.message,
    author: commitAuthor(job.actorId),
    timestamp: opts.now,
  });
  const data: RevisionCreated['data'] = {
    spaceId: job.spaceId,
    revision: commit,
    parents: opts.parents,
    kind: opts.kind,
    pages: tree.pages,
    files: tree.files,
    createdBy: job.actorId,
    createdAt: opts.now.toISOString(),
  };
  if (opts.kind === 'merge') data.mergedFrom = job.changeRequestId;
  else data.changeRequestId = job.changeRequestId;
  return { type: 'RevisionCreated', data };
}

/** A revision's tree, from the change request's own revisions or the space's. */
export function treeOf(revision: string, spaceId: string, ...sources: Array<Map<string, RecordedRevisionTree>>): RecordedRevisionTree {
  for (const source of sources) {
    const tree = source.get(revision);
    if (tree) return tree;
  }
  throw new Error(`No recorded tree for revision ${revision} of space ${spaceId}`);
}
