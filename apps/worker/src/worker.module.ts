import { Module } from '@nestjs/common';
import { GitImportProcessor } from './git-import/git-import.processor';
import { ChangeRequestGitWorkProvider } from './change-requests/change-request-git-work.provider';
import { ChangeRequestProcessor } from './change-requests/change-request.processor';

/**
 * BullMQ processors (git import, change-request merge and update). Mounted by the worker
 * process and by the all-in-one process; closing the module lets active jobs finish.
 */
@Module({
  providers: [GitImportProcessor, ChangeRequestGitWorkProvider, ChangeRequestProcessor],
})
export class WorkerModule {}
