import { Job, Queue } from 'bullmq';
import { Runtime } from '@quire/infrastructure/runtime';
import { GitExportJob } from '@quire/jobs/git-export.job';
import { GitImportJob } from '@quire/jobs/git-import.job';
import { jobIdFor, JobQueues } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import {
  GitExportRun,
  GitImportRun,
  loadGitExport,
  loadGitImport,
  PendingChangeRequestWork,
  pendingChangeRequestWork,
  requestGitRunAgain,
  Requeued,
  requeueChangeRequestWork,
  requeueGitExport,
  requeueGitImport,
  unmergedChangeRequests,
} from '@quire/jobs/recovery/requeue';
import { ChangeRequestJob } from '@quire/jobs/change-request.job';

const RECENT = 10;
const FAILED = 20;
const OPERATOR = 'operator:cli';

type Out = Pick<NodeJS.WriteStream, 'write'>;

export class JobCommandError extends Error {}

/** An import or export of a space. */
interface GitRunId {
  spaceId: string;
  runId: string;
}

/**
 * `npm run cli -- jobs`: every queue's counts, its latest jobs and its failed ones.
 * `npm run cli -- jobs retry <id>`: runs a job again from the event that requested it.
 */
export async function jobsCommand(runtime: Runtime, args: string[], out: Out = process.stdout): Promise<void> {
  if (!runtime.jobs) throw new JobCommandError('Redis is not connected');
  const [sub, id, ...rest] = args;
  if (!sub || sub === 'list') return listJobs(runtime.jobs, out);
  if (sub === 'retry' && id && rest.length === 0) return retryJob(runtime, runtime.jobs, id, out);
  throw new JobCommandError('Usage: jobs [list] | jobs retry <job id, import id, export id or change request id>');
}

export async function listJobs(jobs: JobQueues, out: Out): Promise<void> {
  for (const queue of jobs.all()) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
    out.write(`${queue.name}  ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join('  ')}\n`);
    const recent = (await queue.getJobs(['active', 'waiting', 'delayed', 'completed', 'failed'], 0, RECENT * 2))
      .filter((j): j is Job => !!j)
      .sort((a, b) => b.timestamp - a.timestamp)
      .slice(0, RECENT);
    if (recent.length) out.write(`  recent:\n${(await Promise.all(recent.map(describe))).join('')}`);
    const failed = (await queue.getFailed(0, FAILED - 1)).filter((j): j is Job => !!j);
    if (failed.length) out.write(`  failed:\n${(await Promise.all(failed.map(describe))).join('')}`);
  }
}

async function describe(job: Job): Promise<string> {
  const state = await job.getState();
  const when = new Date(job.finishedOn ?? job.processedOn ?? job.timestamp).toISOString();
  const took = job.finishedOn && job.processedOn ? ` ${((job.finishedOn - job.processedOn) / 1000).toFixed(1)} s` : '';
  const data = Object.entries((job.data ?? {}) as Record<string, unknown>).map(([k, v]) => `${k}=${v}`).join(' ');
  const reason = state === 'failed' && job.failedReason ? `  reason: ${job.failedReason.split('\n')[0].slice(0, 200)}` : '';
  return `    ${String(job.id).padEnd(28)} ${state.padEnd(10)} ${when}${took}  attempts ${job.attemptsMade}/${job.opts.attempts ?? 1}  ${data}${reason}\n`;
}

/**
 * The job's request is an event: a git import or export is read back from the space's stream (a
 * failed one is requested again as a new run; one still unfinished gets its job back; a completed
 * or skipped one is refused). A change request's pending merge or update (by change request id,
 * request id or job id) gets its job back when Redis lost it. Jobs of other queues are retried
 * when they failed.
 */
export async function retryJob(runtime: Runtime, jobs: JobQueues, id: string, out: Out): Promise<void> {
  const found = await findJob(jobs, id);
  const importJob = found?.queue.name === QUEUES.gitImport ? (found.job.data as GitImportJob) : undefined;
  const imported = importJob ? { spaceId: importJob.spaceId, runId: importJob.importId } : await runById(runtime, 'rm_git_imports', id);
  if (imported) return retryGitRun(runtime, jobs, 'import', imported, out);
  const exportJob = found?.queue.name === QUEUES.gitExport ? (found.job.data as GitExportJob) : undefined;
  const exported = exportJob ? { spaceId: exportJob.spaceId, runId: exportJob.exportId } : await runById(runtime, 'rm_git_exports', id);
  if (exported) return retryGitRun(runtime, jobs, 'export', exported, out);
  const work = await changeRequestWorkById(runtime, id, found?.job);
  if (work.length) return retryChangeRequestWork(jobs, work, out);
  if (!found) throw new JobCommandError(`No job, git import or git export with id ${id}, nor a pending change-request merge or update`);
  const state = await found.job.getState();
  if (state === 'completed') throw new JobCommandError(`Job ${id} already completed; nothing to retry`);
  if (state !== 'failed') {
    out.write(`Job ${id} is ${state}: it will run without help\n`);
    return;
  }
  await found.job.retry('failed');
  out.write(`Job ${id} (${found.queue.name}) retried\n`);
}

/** What an operator's retry does with a git run, by what the events say of it (see retryJob). */
async function retryGitRun(runtime: Runtime, jobs: JobQueues, kind: 'import' | 'export', { spaceId, runId }: GitRunId, out: Out): Promise<void> {
  const Kind = kind === 'import' ? 'Import' : 'Export';
  const run: GitImportRun | GitExportRun | undefined = kind === 'import' ? await loadGitImport(runtime.store, spaceId, runId) : await loadGitExport(runtime.store, spaceId, runId);
  if (!run) throw new JobCommandError(`Space ${spaceId} has no request event for ${kind} ${runId}`);
  switch (run.status) {
    case 'completed':
      throw new JobCommandError(`${Kind} ${runId} already completed; nothing to retry`);
    case 'skipped':
      throw new JobCommandError(`${Kind} ${runId} was skipped (a newer import or export was applied); trigger a new ${kind} with force: true instead`);
    case 'failed': {
      const again = await requestGitRunAgain(runtime.executor, jobs, spaceId, run, OPERATOR);
      out.write(`${Kind} ${runId} had failed: requested again as ${kind} ${again.runId} (job ${again.jobId})\n`);
      return;
    }
    default: {
      const requeue = kind === 'import' ? requeueGitImport : requeueGitExport;
      const what: Requeued = await requeue(jobs, spaceId, runId, { retryFailed: true });
      const said = { enqueued: 'its job was lost: enqueued again', retried: 'its failed job was retried', pending: 'its job is pending: it will run without help', failed: '' };
      out.write(`${Kind} ${runId} is ${run.status}: ${said[what]} (job ${jobIdFor(runId)})\n`);
    }
  }
}

/**
 * Pending merges/updates named by `id`: a change request id (all its pending work), a request
 * event id or its job id. A job still in Redis names its change request; a lost one is looked for
 * among the change requests not merged yet.
 */
async function changeRequestWorkById(runtime: Runtime, id: string, job: Job | undefined): Promise<PendingChangeRequestWork[]> {
  const named = (job?.data as Partial<ChangeRequestJob> | undefined)?.changeRequestId;
  const direct = await pendingChangeRequestWork(runtime.store, named ?? id);
  const matches = (w: PendingChangeRequestWork) => w.job.requestId === id || jobIdFor(w.job.requestId) === id;
  if (!named && direct.length) return direct;
  if (named) return direct.filter(matches);
  for (const changeRequestId of await unmergedChangeRequests(runtime.db)) {
    const found = (await pendingChangeRequestWork(runtime.store, changeRequestId)).filter(matches);
    if (found.length) return found;
  }
  return [];
}

async function retryChangeRequestWork(jobs: JobQueues, work: PendingChangeRequestWork[], out: Out): Promise<void> {
  const said = {
    enqueued: 'its job was lost: enqueued again',
    retried: 'its failed job was retried',
    pending: 'its job is pending: it will run without help',
    finished: 'its job finished; request it again through the API',
    failed: '',
  };
  for (const w of work) {
    const what = await requeueChangeRequestWork(jobs, w, { retryFailed: true });
    const kind = w.queue === QUEUES.changeRequestMerge ? 'merge' : 'update';
    out.write(`Change request ${w.job.changeRequestId} ${kind} ${w.job.requestId} is pending: ${said[what]} (job ${jobIdFor(w.job.requestId)})\n`);
  }
}

async function findJob(jobs: JobQueues, id: string): Promise<{ queue: Queue; job: Job } | undefined> {
  for (const queue of jobs.all()) {
    for (const candidate of [id, jobIdFor(id)]) {
      const job = await Job.fromId(queue, candidate);
      if (job) return { queue, job };
    }
  }
  return undefined;
}

/** A git run whose job is gone from Redis (removed, or lost), by its import or export id. */
async function runById(runtime: Runtime, table: 'rm_git_imports' | 'rm_git_exports', runId: string): Promise<GitRunId | undefined> {
  const r = await runtime.db.query<{ space_id: string }>(`SELECT space_id FROM ${table} WHERE id = $1`, [runId]);
  return r.rows[0] ? { spaceId: r.rows[0].space_id, runId } : undefined;
}
