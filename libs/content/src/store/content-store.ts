import { initSpaceRepo } from './init-space-repo';
import { isAncestor } from './is-ancestor';
import type { MergeFilesResult } from './merge-files';
import { mergeTrees, type MergeTreesOptions } from './merge-trees';
import { readBlob } from './read-blob';
import { readRevision } from './read-revision';
import { readRevisionFiles, type RevisionFile } from './read-revision-files';
import { createStoreCaches, spaceRepo, type RevisionCommit, type SpaceRepo, type StoreCacheOptions, type StoreCaches } from './space-repo';
import { advanceLiveRef, recordTip } from './revision-refs';
import { writeRevision, type WriteRevisionOptions } from './write-revision';

export interface ContentStoreOptions extends StoreCacheOptions {
  /** Repositories live in `<dataDir>/spaces/<spaceId>.git`. */
  dataDir: string;
}

/**
 * Content bytes of every space: one bare git repository per space, one commit per
 * revision. The events name the revisions, and a revision is addressed by its commit id;
 * refs only keep every revision reachable (for `git gc` and clones): `refs/heads/main` at
 * the live revision and `refs/quire/revisions/<id>` at each head (see revision-refs). Safe to share within a process; several processes may write to one
 * repository at once (objects are content-addressed and written atomically).
 */
export class ContentStore {
  private readonly caches: StoreCaches;

  constructor(private readonly opts: ContentStoreOptions) {
    this.caches = createStoreCaches(opts);
  }

  /** Path of the space's bare repository. Throws InvalidSpaceIdError for an id that is not
   * a GitBook-style id. */
  repositoryPath(spaceId: string): string {
    return this.repo(spaceId).gitdir;
  }

  initSpaceRepo(spaceId: string): Promise<void> {
    return initSpaceRepo(this.repo(spaceId));
  }

  /** Writes a revision (creating the repository if needed) and returns its commit id. */
  writeRevision(opts: WriteRevisionOptions & { spaceId: string }): Promise<string> {
    return writeRevision(this.repo(opts.spaceId), opts);
  }

  /** Moves `refs/heads/main` (what a clone checks out) to the space's new live revision,
   * once the event that makes it live is appended. Forward only: a late call for an
   * older live revision changes nothing. */
  setLiveRevision(spaceId: string, revision: string): Promise<void> {
    return advanceLiveRef(this.repo(spaceId), revision);
  }

  /** Gives a revision its tip ref and drops its parents' (see revision-refs); `writeRevision` does this itself. */
  recordRevisionTip(spaceId: string, revision: string, parents: readonly string[]): Promise<void> {
    return recordTip(this.repo(spaceId), revision, parents);
  }

  readRevision(spaceId: string, revision: string): Promise<RevisionCommit> {
    return readRevision(this.repo(spaceId), revision);
  }

  readRevisionFiles(spaceId: string, revision: string): Promise<RevisionFile[]> {
    return readRevisionFiles(this.repo(spaceId), revision);
  }

  readBlob(spaceId: string, oid: string): Promise<Uint8Array> {
    return readBlob(this.repo(spaceId), oid);
  }

  mergeTrees(opts: MergeTreesOptions & { spaceId: string }): Promise<MergeFilesResult> {
    return mergeTrees(this.repo(opts.spaceId), opts);
  }

  /** True when `descendant` is `ancestor` or descends from it (a fast-forward). */
  isAncestor(spaceId: string, ancestor: string, descendant: string): Promise<boolean> {
    return isAncestor(this.repo(spaceId), { ancestor, descendant });
  }

  private repo(spaceId: string): SpaceRepo {
    return spaceRepo(this.opts.dataDir, spaceId, this.caches);
  }
}
