export type { ImportedAsset } from './collect-import-files';
export { contentTypeOf } from './content-type';
export { GitImportError, type GitImportErrorCode } from './import.errors';
export {
  cacheRepositoryPath,
  importGitRepository,
  type GitImportResult,
  type ImportGitRepositoryOptions,
  type ImportProgress,
} from './import-git-repository';
export { parseRemoteUrl, redactCredentials, redactUrl, scrubSecrets } from './remote-url';
