import { Inject, Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { Job } from 'bullmq';
import Redis from 'ioredis';
import { GitImportRequested, gitSyncAggregate, GitSyncState, spaceStream } from '@quire/domain';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { GitImportJob } from '@quire/jobs/git-import.job';
import { jobIdFor, JobQueues } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { Db } from '@quire/platform/db/db';
import { newId } from '@quire/platform/ids/ids';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { CommandExecutor } from '@quire/projections/command-executor';
import { DB, REDIS } from '@quire/infrastructure/tokens';

export type GitImportRun = GitSyncState['imports'][string];

/** What the events say of one git import (the truth; the job is only its messenger). */
export async function loadGitImport(store: EventStore, spaceId: string, importId: string): Promise<GitImportRun | undefined> {
  let state = gitSyncAggregate.initialState();
  for (const e of await store.readStream(spaceStream(spaceId))) state = gitSyncAggregate.evolve(state, { type: e.type, data: e.data });
  return state.imports[importId];
}

export type Requeued = 'enqueued' | 'retried' | 'pending' | 'failed';

/**
 * Makes sure an unfinished import has a job: keeps a pending one, enqueues one when none is left
 * (Redis lost it), and retries a failed one when asked (an operator's call: automatic recovery
 * leaves failed jobs alone so a poison job is not run at every restart). The job id comes from
 * the import, so this is idempotent.
 */
export async function requeueGitImport(jobs: JobQueues, spaceId: string, importId: string, opts: { retryFailed: boolean }): Promise<Requeued> {
  const queue = jobs.queue(QUEUES.gitImport);
  const jobId = jobIdFor(importId);
  const job = await Job.fromId(queue, jobId);
  if (job) {
    const state = await job.getState();
    if (state === 'failed') {
      if (!opts.retryFailed) return 'failed';
      await job.retry('failed');
      return 'retried';
    }
    if (state !== 'completed' && state !== 'unknown') return 'pending';
    // A finished job for an import the events still call unfinished: run it again.
    await job.remove();
  }
  const data: GitImportJob = { spaceId, importId };
  await jobs.enqueue(QUEUES.gitImport, jobId, data);
  return 'enqueued';
}

/**
 * Requests a failed import again, as a new import with the same request (a failure is a fact:
 * it is not rewritten). Refused when the request carried credentials: they were never kept.
 */
export async function requestGitImportAgain(
  executor: CommandExecutor,
  jobs: JobQueues,
  spaceId: string,
  failed: GitImportRun,
  actor: string,
): Promise<{ importId: string; jobId: string }> {
  if (failed.request.hasCredentials) {
    throw new Error('This import used credentials, which Quire never keeps: trigger it again through the API with them');
  }
  const importId = newId();
  await executor.append({
    stream: spaceStream(spaceId),
    aggregate: gitSyncAggregate,
    decide: (_state, ctx): GitImportRequested[] => [
      { type: 'GitImportRequested', data: { spaceId, request: { ...failed.request, importId }, requestedBy: failed.requestedBy, at: ctx.now.toISOString() } },
    ],
    metadata: { actor, retryOf: failed.request.importId },
  });
  const jobId = jobIdFor(importId);
  const data: GitImportJob = { spaceId, importId };
  await jobs.enqueue(QUEUES.gitImport, jobId, data);
  return { importId, jobId };
}

/**
 * Jobs are messengers for events: when Redis comes back (possibly empty, after a restart
 * without persistence) every import the events still call queued or running gets its job
 * again, so a lost job delays an import but never loses it.
 */
@Injectable()
export class JobRecovery implements OnModuleInit, OnModuleDestroy {
  private disconnected = false;
  private running?: Promise<void>;
  private readonly onReady = () => {
    if (!this.disconnected) return;
    this.disconnected = false;
    void this.recover('redis reconnected');
  };
  private readonly onClose = () => {
    this.disconnected = true;
  };

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly jobs?: JobQueues,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  onModuleInit(): void {
    if (!this.jobs || !this.redis) return;
    this.redis.on('close', this.onClose);
    this.redis.on('ready', this.onReady);
    void this.recover('startup');
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.off('close', this.onClose);
    this.redis?.off('ready', this.onReady);
    await this.running;
  }

  /** Gives every unfinished import whose job was lost a new one. */
  recover(reason: string): Promise<void> {
    this.running ??= this.run(reason).finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(reason: string): Promise<void> {
    try {
      // The git-imports read model knows which imports the events still call unfinished.
      const r = await this.db.query<{ id: string; space_id: string }>(`SELECT id, space_id FROM rm_git_imports WHERE status IN ('queued', 'running')`);
      let enqueued = 0;
      for (const row of r.rows) if ((await requeueGitImport(this.jobs!, row.space_id, row.id, { retryFailed: false })) === 'enqueued') enqueued++;
      if (enqueued) this.logger.warn({ reason, enqueued }, 'job recovery: re-enqueued git imports whose jobs were lost');
    } catch (err: any) {
      this.logger.warn({ reason, err: err.message }, 'job recovery: could not check for lost jobs; will try at the next reconnection');
    }
  }
}
