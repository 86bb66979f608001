export { GitSyncLayoutError, type GitSyncLayoutErrorCode } from './gitsync.errors';
export type { ImportedLayout, ImportedPage, ImportedPageKind } from './imported-layout';
export { parseSummary, type ParsedSummary, type SummaryEntry, type SummaryGroup, type SummaryItem } from './parse-summary';
export { readGitSyncLayout, type ReadGitSyncLayoutOptions } from './read-git-sync-layout';
export { referencedAssetPaths, type AssetReferences, type ReferencedAssetPathsOptions } from './referenced-asset-paths';
export { slugFromFileName, slugify } from './slugify';
export { memorySourceTree, readText, type SourceTree } from './source-tree';
export {
  writeGitSyncLayout,
  type GitSyncFiles,
  type PageToWrite,
  type WriteGitSyncLayoutOptions,
} from './write-git-sync-layout';
