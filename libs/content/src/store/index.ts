export { ContentStore, type ContentStoreOptions } from './content-store';
export { diff3Merge, mergeText, splitLines, type Diff3Chunk, type MergeTextOptions, type MergeTextResult } from './diff3';
export type { IsAncestorOptions } from './is-ancestor';
export { mergeFiles, type FileVersion, type MergeConflict, type MergeConflictKind, type MergeFilesOptions, type MergeFilesResult } from './merge-files';
export type { MergeTreesOptions } from './merge-trees';
export type { RevisionFile } from './read-revision-files';
export type { FileMode, RevisionCommit } from './space-repo';
export {
  ContentStoreError,
  InvalidPathError,
  InvalidSpaceIdError,
  ObjectNotFoundError,
  RevisionNotFoundError,
  type ContentStoreErrorCode,
} from './store.errors';
export type { RevisionFileInput, WriteRevisionOptions } from './write-revision';
