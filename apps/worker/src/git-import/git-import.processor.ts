import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import Redis from 'ioredis';
import { scrubSecrets } from '@quire/content/import';
import { GitImportJob } from '@quire/jobs/git-import.job';
import { JobWorkers } from '@quire/jobs/job-workers';
import { QUEUES } from '@quire/jobs/queues';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { REDIS } from '@quire/infrastructure/tokens';
import { failureReason, isTransient } from './git-import-failures';
import { GitImport, GitImportFailedError, GitImportOutcome, GitImportRun, UnknownGitImportError } from './git-import';
import { SpaceLock } from './space-lock';

/**
 * The git-import queue: one import per space at a time (a Redis lock; the second waits its
 * turn), the use case (`GitImport`), and what BullMQ does with a failure: transient ones are
 * retried while attempts remain, anything else is recorded as GitImportFailed and fails the job
 * for good.
 */
@Injectable()
export class GitImportProcessor implements OnModuleInit, OnModuleDestroy {
  private workers?: JobWorkers;
  /** How long the per-space lock lives without renewal; it is renewed every third of it
   * while the job runs. */
  lockTtlMs = 15 * 60_000;

  constructor(
    private readonly gitImport: GitImport,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.workers = new JobWorkers(this.redis, this.config.queuePrefix, this.logger.child({ component: 'git-import' }), this.config.installationId);
    this.workers.register<GitImportJob, unknown>(QUEUES.gitImport, (job, token) => this.process(job, token), { concurrency: 2 });
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers?.close();
  }

  async process(job: Job<GitImportJob>, token?: string): Promise<GitImportOutcome> {
    const { spaceId, importId } = job.data;
    const lock = new SpaceLock(this.redis, `${this.config.queuePrefix}:lock:git-import:${spaceId}`, String(job.id), this.lockTtlMs);
    if (!(await lock.acquire())) {
      await job.moveToDelayed(Date.now() + 500, token);
      throw new DelayedError();
    }
    const log = this.logger.child({ spaceId, importId, jobId: job.id });
    const run: GitImportRun = { phase: 'prepare', secrets: [] };
    return lock.holdWhile(
      async () => {
        try {
          return await this.gitImport.run(spaceId, importId, log, run);
        } catch (err) {
          throw await this.settleFailure(job, err, log, run);
        }
      },
      (err) => (err ? log.warn({ err: err.message }, 'could not renew the git import lock') : log.warn('git import lost its space lock')),
    );
  }

  /**
   * Any error out of a run: retried when it may pass (network trouble, a busy database) and
   * attempts remain; otherwise recorded at once as GitImportFailed with a reason, the
   * credentials dropped, and the job failed for good.
   */
  private async settleFailure(job: Job<GitImportJob>, err: unknown, log: Logger, run: GitImportRun): Promise<unknown> {
    if (err instanceof GitImportFailedError || err instanceof UnknownGitImportError) return new UnrecoverableError(err.message);
    if (err instanceof UnrecoverableError || err instanceof DelayedError) return err;
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const scrub = (text: string) => scrubSecrets(text, run.secrets);
    const message = err instanceof Error ? err.message : String(err);
    if (isTransient(err) && !lastAttempt) {
      log.warn({ err: scrub(message), phase: run.phase, attempt: job.attemptsMade + 1 }, 'git import failed; will retry');
      return err;
    }
    const { code, message: reason } = failureReason(err, run.phase, scrub);
    log.error({ err: scrub(message), code, phase: run.phase, attempt: job.attemptsMade + 1 }, 'git import failed');
    try {
      return await this.gitImport.fail(job.data.spaceId, job.data.importId, code, reason);
    } catch (recorded) {
      if (recorded instanceof GitImportFailedError) return new UnrecoverableError(recorded.message);
      throw recorded;
    }
  }
}
