export { deriveRevision, type DerivedRevision } from './derive-revision';
export { copyRevision, initialSpaceFiles, writeInitialRevision } from './initial-revision';
export { revisionCreatedFor } from './record-revision';
export { importedRevisionFiles } from './imported-revision-files';
export { semanticChanges, type SemanticChange, type PageAttributeChanges, type FileAttributeChanges, type RevisionTreeNodes } from './semantic-changes';
