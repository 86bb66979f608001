import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import Redis from 'ioredis';
import { GitExportJob } from '@quire/jobs/git-export.job';
import { JobWorkers } from '@quire/jobs/job-workers';
import { QUEUES } from '@quire/jobs/queues';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { REDIS } from '@quire/infrastructure/tokens';
import { scrubSecrets } from '@quire/content/import';
import { ExportRun, ExportSpaceToGit } from './export-space-to-git';
import { exportFailureReason, isTransientExportFailure } from './git-export-failure';

/**
 * BullMQ glue of git exports: takes a job, runs the export, and settles failures — retried
 * with the queue's backoff when they may pass and attempts remain, otherwise recorded once as
 * GitExportFailed with a reason and failed for good.
 */
@Injectable()
export class GitExportProcessor implements OnModuleInit, OnModuleDestroy {
  private workers?: JobWorkers;

  constructor(
    private readonly exports: ExportSpaceToGit,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.workers = new JobWorkers(this.redis, this.config.queuePrefix, this.logger.child({ component: 'git-export' }), this.config.installationId);
    this.workers.register<GitExportJob, unknown>(QUEUES.gitExport, (job) => this.process(job), { concurrency: 2 });
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers?.close();
  }

  async process(job: Job<GitExportJob>): Promise<unknown> {
    const run: ExportRun = { spaceId: job.data.spaceId, exportId: job.data.exportId, phase: 'prepare', secrets: [] };
    const log = this.logger.child({ spaceId: run.spaceId, exportId: run.exportId, jobId: job.id });
    try {
      return await this.exports.run(run, log);
    } catch (err) {
      throw await this.settleFailure(job, run, err, log);
    }
  }

  private async settleFailure(job: Job<GitExportJob>, run: ExportRun, err: unknown, log: Logger): Promise<unknown> {
    if (err instanceof UnrecoverableError) return err;
    const message = scrubSecrets(err instanceof Error ? err.message : String(err), run.secrets);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (isTransientExportFailure(err) && !lastAttempt) {
      log.warn({ err: message, phase: run.phase, attempt: job.attemptsMade + 1 }, 'git export failed; will retry');
      return err;
    }
    const { code, message: reason } = exportFailureReason(err, run.phase, run.secrets);
    log.error({ err: message, code, phase: run.phase, attempt: job.attemptsMade + 1 }, 'git export failed');
    await this.exports.fail(run, code, reason);
    return new UnrecoverableError(`${code}: ${reason}`);
  }
}
