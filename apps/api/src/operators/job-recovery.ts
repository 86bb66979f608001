import { Inject, Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { Job } from 'bullmq';
import Redis from 'ioredis';
import { changeRequestAggregate, ChangeRequestEvent, changeRequestStream, GitImportRequested, gitSyncAggregate, GitSyncState, spaceStream } from '@quire/domain';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { GitImportJob } from '@quire/jobs/git-import.job';
import { jobIdFor, JobQueues } from '@quire/jobs/job-queues';
import { QueueName, QUEUES } from '@quire/jobs/queues';
import { Db } from '@quire/platform/db/db';
import { newId } from '@quire/platform/ids/ids';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { CommandExecutor } from '@quire/projections/command-executor';
import { DB, REDIS } from '@quire/infrastructure/tokens';
import { ChangeRequestJob } from '../../../worker/src/change-requests/change-request-streams';

export type GitImportRun = GitSyncState['imports'][string];

/** What the events say of one git import (the truth; the job is only its messenger). */
export async function loadGitImport(store: EventStore, spaceId: string, importId: string): Promise<GitImportRun | undefined> {
  let state = gitSyncAggregate.initialState();
  for (const e of await store.readStream(spaceStream(spaceId))) state = gitSyncAggregate.evolve(state, { type: e.type, data: e.data });
  return state.imports[importId];
}

export type Requeued = 'enqueued' | 'retried' | 'pending' | 'failed';

/**
 * The state of a job still in Redis, after retrying it when it failed and the caller asked
 * for that: 'failed' or 'retried' for a failed job, else BullMQ's own state. Both kinds of
 * requeue share this; they differ on what a finished job means.
 */
async function settleFailed(job: Job, opts: { retryFailed: boolean }): Promise<'failed' | 'retried' | Awaited<ReturnType<Job['getState']>>> {
  const state = await job.getState();
  if (state !== 'failed') return state;
  if (!opts.retryFailed) return 'failed';
  await job.retry('failed');
  return 'retried';
}

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
    const state = await settleFailed(job, opts);
    if (state === 'failed' || state === 'retried') return state;
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

/** A merge or update the events call pending (requested, neither completed nor failed), as the job the API would enqueue. */
export interface PendingChangeRequestWork {
  queue: QueueName;
  job: ChangeRequestJob;
}

/** What the events say is pending on one change request: its merge and/or update request. */
export async function pendingChangeRequestWork(store: EventStore, changeRequestId: string): Promise<PendingChangeRequestWork[]> {
  let state = changeRequestAggregate.initialState();
  const requestedBy = new Map<string, string>();
  for (const e of await store.readStream(changeRequestStream(changeRequestId))) {
    state = changeRequestAggregate.evolve(state, { type: e.type, data: e.data } as ChangeRequestEvent);
    if (e.type === 'ChangeRequestMergeRequested' || e.type === 'ChangeRequestUpdateRequested') {
      const d = e.data as { requestId: string; requestedBy: string };
      requestedBy.set(d.requestId, d.requestedBy);
    }
  }
  if (!state.exists || !state.spaceId) return [];
  const work: PendingChangeRequestWork[] = [];
  for (const [queue, pending] of [[QUEUES.changeRequestMerge, state.pendingMerge], [QUEUES.changeRequestUpdate, state.pendingUpdate]] as const) {
    if (!pending) continue;
    work.push({ queue, job: { spaceId: state.spaceId, changeRequestId, requestId: pending.requestId, actorId: requestedBy.get(pending.requestId) ?? 'system' } });
  }
  return work;
}

/** Change requests that may hold a pending merge or update (a merged one holds neither). */
export async function unmergedChangeRequests(db: Db): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM rm_change_requests WHERE status <> 'merged'`);
  return r.rows.map((row) => row.id);
}

/**
 * Makes sure a pending merge or update has its job, with the payload the API enqueues and the
 * job id of its request event. A job still in Redis is left to run (or, when asked, a failed one
 * is retried); a finished job is never run again here: the API's next request decides.
 */
export async function requeueChangeRequestWork(jobs: JobQueues, work: PendingChangeRequestWork, opts: { retryFailed: boolean }): Promise<Requeued | 'finished'> {
  const jobId = jobIdFor(work.job.requestId);
  const job = await Job.fromId(jobs.queue(work.queue), jobId);
  if (job) {
    const state = await settleFailed(job, opts);
    if (state === 'failed' || state === 'retried') return state;
    if (state === 'completed') return 'finished';
    if (state !== 'unknown') return 'pending';
  }
  await jobs.enqueue(work.queue, jobId, work.job);
  return 'enqueued';
}

/**
 * Jobs are messengers for events: when Redis comes back (possibly empty, after a restart
 * without persistence) every import the events still call queued or running, and every merge or
 * update of a change request still pending, gets its job again, so a lost job delays the work but
 * never loses it.
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
    @Inject(EVENT_STORE) private readonly store: EventStore,
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

  /** Gives every unfinished import, and every pending change-request merge or update, whose job was lost a new one. */
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
      let changeRequests = 0;
      for (const id of await unmergedChangeRequests(this.db)) {
        for (const work of await pendingChangeRequestWork(this.store, id)) {
          if ((await requeueChangeRequestWork(this.jobs!, work, { retryFailed: false })) === 'enqueued') changeRequests++;
        }
      }
      if (changeRequests) this.logger.warn({ reason, enqueued: changeRequests }, 'job recovery: re-enqueued change-request merges/updates whose jobs were lost');
    } catch (err: any) {
      this.logger.warn({ reason, err: err.message }, 'job recovery: could not check for lost jobs; will try at the next reconnection');
    }
  }
}
