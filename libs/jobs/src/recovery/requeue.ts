import { Job } from 'bullmq';
import { changeRequestAggregate, changeRequestStream, decideGitExport, decideGitImport, gitExportAggregate, GitImportState, SpaceGitExports, spaceGitImportsAggregate, spaceStream } from '@quire/domain';
import { Db } from '@quire/platform/db/db';
import { newId } from '@quire/platform/ids/ids';
import { EventStore } from '@quire/event-store/event-store.port';
import { CommandExecutor, foldStream } from '@quire/projections/command-executor';
import { ChangeRequestJob } from '../change-request.job';
import { GitExportJob } from '../git-export.job';
import { GitImportJob } from '../git-import.job';
import { jobIdFor, JobQueues } from '../job-queues';
import { QueueName, QUEUES } from '../queues';

export type GitImportRun = GitImportState['imports'][string];
export type GitExportRun = SpaceGitExports['exports'][string];

/** What the events say of one git import (the truth; the job is only its messenger). */
export async function loadGitImport(store: EventStore, spaceId: string, importId: string): Promise<GitImportRun | undefined> {
  return foldStream(spaceGitImportsAggregate, await store.readStream(spaceStream(spaceId))).state.git.imports[importId];
}

/** What the events say of one git export. */
export async function loadGitExport(store: EventStore, spaceId: string, exportId: string): Promise<GitExportRun | undefined> {
  return foldStream(gitExportAggregate, await store.readStream(spaceStream(spaceId))).state.exports[exportId];
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
 * Makes sure an unfinished git run (import or export) has a job: keeps a pending one, enqueues
 * one when none is left (Redis lost it), and retries a failed one when asked (an operator's call:
 * automatic recovery leaves failed jobs alone so a poison job is not run at every restart). The
 * job id comes from the run, so this is idempotent.
 */
async function requeueGitRun<T extends object>(jobs: JobQueues, queueName: QueueName, runId: string, data: T, opts: { retryFailed: boolean }): Promise<Requeued> {
  const jobId = jobIdFor(runId);
  const job = await Job.fromId(jobs.queue(queueName), jobId);
  if (job) {
    const state = await settleFailed(job, opts);
    if (state === 'failed' || state === 'retried') return state;
    if (state !== 'completed' && state !== 'unknown') return 'pending';
    // A finished job for a run the events still call unfinished: run it again.
    await job.remove();
  }
  await jobs.enqueue(queueName, jobId, data);
  return 'enqueued';
}

/** Makes sure an import the events call unfinished has a job (see requeueGitRun). */
export function requeueGitImport(jobs: JobQueues, spaceId: string, importId: string, opts: { retryFailed: boolean }): Promise<Requeued> {
  const data: GitImportJob = { spaceId, importId };
  return requeueGitRun(jobs, QUEUES.gitImport, importId, data, opts);
}

/**
 * Makes sure an export the events call unfinished has a job (see requeueGitRun), with the
 * payload the API enqueues. Credentials given with the request live only in their short-lived
 * Redis key: when that is gone too, the export runs without them and records how that went.
 */
export function requeueGitExport(jobs: JobQueues, spaceId: string, exportId: string, opts: { retryFailed: boolean }): Promise<Requeued> {
  const data: GitExportJob = { spaceId, exportId };
  return requeueGitRun(jobs, QUEUES.gitExport, exportId, data, opts);
}

/**
 * Requests a failed import or export again, as a new run with the same request (a failure is a
 * fact: it is not rewritten). Refused when the request carried credentials: they were never kept.
 */
export async function requestGitRunAgain(
  executor: CommandExecutor,
  jobs: JobQueues,
  spaceId: string,
  failed: GitImportRun | GitExportRun,
  actor: string,
): Promise<{ runId: string; jobId: string }> {
  if (failed.request.hasCredentials) {
    throw new Error('This run used credentials, which Quire never keeps: trigger it again through the API with them');
  }
  const runId = newId();
  const { requestedBy } = failed;
  const stream = spaceStream(spaceId);
  if ('importId' in failed.request) {
    const request = { ...failed.request, importId: runId };
    const metadata = { actor, retryOf: failed.request.importId };
    await executor.append({ stream, aggregate: spaceGitImportsAggregate, decide: (state, ctx) => decideGitImport({ type: 'RequestGitImport', spaceId, request, requestedBy }, state, ctx), metadata });
    const data: GitImportJob = { spaceId, importId: runId };
    await jobs.enqueue(QUEUES.gitImport, jobIdFor(runId), data);
  } else {
    const request = { ...failed.request, exportId: runId };
    const metadata = { actor, retryOf: failed.request.exportId };
    await executor.append({ stream, aggregate: gitExportAggregate, decide: (state, ctx) => decideGitExport({ type: 'RequestGitExport', spaceId, request, requestedBy }, state, ctx), metadata });
    const data: GitExportJob = { spaceId, exportId: runId };
    await jobs.enqueue(QUEUES.gitExport, jobIdFor(runId), data);
  }
  return { runId, jobId: jobIdFor(runId) };
}

/** A merge or update the events call pending (requested, neither completed nor failed), as the job the API would enqueue. */
export interface PendingChangeRequestWork {
  queue: QueueName;
  job: ChangeRequestJob;
}

/** What the events say is pending on one change request: its merge and/or update request. */
export async function pendingChangeRequestWork(store: EventStore, changeRequestId: string): Promise<PendingChangeRequestWork[]> {
  const { state, events } = foldStream(changeRequestAggregate, await store.readStream(changeRequestStream(changeRequestId)));
  const requestedBy = new Map<string, string>();
  for (const e of events) {
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

