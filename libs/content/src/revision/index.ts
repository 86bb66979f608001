export { deriveRevision, type DerivedRevision } from './derive-revision';
export { copyRevision, initialSpaceFiles, writeInitialRevision } from './initial-revision';
export { revisionCreatedFor } from './record-revision';
export { importedRevisionFiles } from './imported-revision-files';
