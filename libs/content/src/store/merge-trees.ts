import { mergeFiles, type FileVersion, type MergeFilesResult } from './merge-files';
import { readBlob } from './read-blob';
import { readRevisionFiles } from './read-revision-files';
import type { SpaceRepo } from './space-repo';

export interface MergeTreesOptions {
  /** The revision both sides started from (a change request's
   * `revisionMergedAncestor ?? revisionInitial`). */
  base: string;
  ours: string;
  theirs: string;
  /** Names after the conflict markers; `ours` and `theirs` by default. */
  labels?: { ours?: string; theirs?: string };
}

/** Three-way merge of two revisions; nothing is written (pass `files` to writeRevision). */
export async function mergeTrees(repo: SpaceRepo, opts: MergeTreesOptions): Promise<MergeFilesResult> {
  const [base, ours, theirs] = await Promise.all([opts.base, opts.ours, opts.theirs].map((rev) => fileMap(repo, rev)));
  return mergeFiles({ base, ours, theirs, labels: opts.labels, readBlob: (oid) => readBlob(repo, oid) });
}

async function fileMap(repo: SpaceRepo, revision: string): Promise<Map<string, FileVersion>> {
  const files = await readRevisionFiles(repo, revision);
  return new Map(files.map((file) => [file.path, { oid: file.oid, mode: file.mode }]));
}
