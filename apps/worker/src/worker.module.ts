import { Module } from '@nestjs/common';
import { GitImportProcessor } from './git-import/git-import.processor';
import { ExportSpaceToGit } from './git-export/export-space-to-git';
import { GitExportProcessor } from './git-export/git-export.processor';
import { ChangeRequestGitWorkProvider } from './change-requests/change-request-git-work.provider';
import { ChangeRequestProcessor } from './change-requests/change-request.processor';

/**
 * BullMQ processors (git import and export, change-request merge and update). Mounted by the worker
 * process and by the all-in-one process; closing the module lets active jobs finish.
 */
@Module({
  providers: [GitImportProcessor, ExportSpaceToGit, GitExportProcessor, ChangeRequestGitWorkProvider, ChangeRequestProcessor],
})
export class WorkerModule {}
