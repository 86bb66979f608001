import { Module } from '@nestjs/common';
import { GitImport } from './git-import/git-import';
import { GitImportProcessor } from './git-import/git-import.processor';
import { GitRunSecrets } from './git-runs/git-run-secrets';
import { ExportSpaceToGit } from './git-export/export-space-to-git';
import { GitExportProcessor } from './git-export/git-export.processor';
import { ChangeRequestProcessor } from './change-requests/change-request.processor';
import { MergeChangeRequest } from './change-requests/merge-change-request/merge-change-request';
import { UpdateChangeRequest } from './change-requests/update-change-request/update-change-request';
import { JobRecovery } from './job-recovery/job-recovery';

/**
 * BullMQ processors (git import and export, change-request merge and update), the use cases they
 * run, and the recovery that re-enqueues their lost jobs from the events. Mounted by the worker
 * process and by the all-in-one process; closing the module lets active jobs finish.
 */
@Module({
  providers: [GitRunSecrets, GitImport, GitImportProcessor, ExportSpaceToGit, GitExportProcessor, MergeChangeRequest, UpdateChangeRequest, ChangeRequestProcessor, JobRecovery],
})
export class WorkerModule {}
