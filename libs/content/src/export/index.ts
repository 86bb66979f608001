export { composeExportTree, type ComposeExportTreeInput, type ComposedExportTree, type TreeFile } from './compose-export-tree';
export { GitExportError } from './export.errors';
export { exportToGitRepository, type ExportToGitRepositoryOptions, type ExportToGitRepositoryResult } from './export-to-git-repository';
export { pageRenames, renameSummaryLinks } from './page-renames';
