export {
  applyContentChanges,
  type AppliedChanges,
  type ApplyContext,
  type ContentChange,
  type ContentChangeOutcome,
  type DocumentInput,
  type InsertedFile,
  type RevertSource,
} from './apply-content-changes';
export { commitAuthor } from './commit-author';
export { commitEditedRevision, type CommitEditedRevisionOptions } from './commit-edited-revision';
export {
  cloneEditable,
  loadEditableRevision,
  locatePage,
  pageText,
  walkEditable,
  type EditablePage,
  type EditableRevision,
  type RevisionTree,
} from './editable-revision';
export { mergeRevisions, type MergedRevision, type MergeRevisionsOptions, type RevisionMergeConflict, type RevisionMergeConflictKind } from './merge-revisions';
export { assertWithinPageLimits, type PageLimits } from './page-limits';
export type { PageMetadataInput } from './page-text';
export { resolveLinks } from './resolve-links';
export { writeContentChanges, type WriteContentChangesOptions, type WrittenContentChanges } from './write-content-changes';
