import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { gitRunSecretKey, GitRunQueue } from './git-run-secret';
import { InstallationScoped } from './installation-scope';
import { JobQueues } from './job-queues';
import { QueueName, QUEUES } from './queues';

/** The states of a job no worker holds yet: those can move to another queue. */
const UNTAKEN = ['wait', 'prioritized', 'delayed'] as const;

/** The run whose credentials a git job's secret key names. */
function gitRunOf(queue: QueueName, data: Record<string, unknown>): { queue: GitRunQueue; runId: string } | undefined {
  if (queue === QUEUES.gitImport && typeof data.importId === 'string') return { queue, runId: data.importId };
  if (queue === QUEUES.gitExport && typeof data.exportId === 'string') return { queue, runId: data.exportId };
  return undefined;
}

/**
 * Before queues were scoped to the installation under a configured QUIRE_QUEUE_PREFIX, an
 * installation's queues lived directly under that prefix, shared with any other installation
 * given the same one. Moves this installation's jobs still waiting there (and the credentials
 * of its git runs) to its own queues: the jobs naming it, and those naming none (enqueued before
 * jobs carried an installation id) when it is the prefix's recorded owner. Same job ids, so the
 * move is idempotent and safe to run from every process at start; a job a worker of the previous
 * version holds is left to it, and JobRecovery re-enqueues from the events whatever is unfinished.
 * Returns how many jobs moved.
 */
export async function adoptLegacyJobs(
  redis: Redis,
  legacyPrefix: string,
  jobs: JobQueues,
  scopedPrefix: string,
  installationId: string,
  opts: { ownsLegacyPrefix: boolean },
): Promise<number> {
  let moved = 0;
  for (const name of Object.values(QUEUES)) {
    const legacy = new Queue(name, { connection: redis, prefix: legacyPrefix });
    try {
      for (const job of await legacy.getJobs([...UNTAKEN])) {
        if (!job?.id) continue;
        const owner = (job.data as InstallationScoped | undefined)?.installationId;
        if (owner === undefined ? !opts.ownsLegacyPrefix : owner !== installationId) continue;
        const run = gitRunOf(name, job.data ?? {});
        if (run) {
          const from = gitRunSecretKey(legacyPrefix, run.queue, run.runId);
          // RENAME keeps the key's expiry; a secret already gone (or moved by another process) is no error.
          await redis.rename(from, gitRunSecretKey(scopedPrefix, run.queue, run.runId)).catch(() => undefined);
        }
        const { installationId: _, ...data } = job.data as Record<string, unknown> & InstallationScoped;
        await jobs.enqueue(name, job.id, data);
        // A job a worker of the previous version took meanwhile stays with it (remove refuses a locked job).
        await job.remove().catch(() => undefined);
        moved++;
      }
    } finally {
      await legacy.close();
    }
  }
  return moved;
}
