import Redis from 'ioredis';
import { createLogger } from '@quire/platform/logging/logger';
import { TEST_REDIS_URL, uniquePrefix } from '@quire/test-support/databases';
import { jobIdFor, JobQueues } from './job-queues';
import { JobWorkers, UnrecoverableError } from './job-workers';
import { QUEUES } from './queues';

describe('job queues (real Redis)', () => {
  let redis: Redis;
  let queues: JobQueues;
  let workers: JobWorkers;
  const prefix = uniquePrefix('jobs');

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queues = new JobQueues(redis, prefix);
    workers = new JobWorkers(redis, prefix, createLogger({ level: 'silent' }));
  });
  afterAll(async () => {
    await workers.close();
    await queues.close();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('enqueues idempotently by event id and returns the job result to a waiter', async () => {
    let runs = 0;
    workers.register<{ changeRequestId: string }, { merged: string }>(QUEUES.changeRequestMerge, async (job) => {
      runs++;
      return { merged: job.data.changeRequestId };
    });
    const id = jobIdFor('0b7c2c1e-1111-4a4a-9999-000000000001');
    const first = await queues.enqueue(QUEUES.changeRequestMerge, id, { changeRequestId: 'cr1' });
    const again = await queues.enqueue(QUEUES.changeRequestMerge, id, { changeRequestId: 'cr1' });
    expect(again.id).toBe(first.id);
    await expect(queues.waitFor(QUEUES.changeRequestMerge, first, 5000)).resolves.toEqual({ merged: 'cr1' });
    expect(runs).toBe(1);
  });

  it('does not retry a permanent failure', async () => {
    let attempts = 0;
    workers.register(QUEUES.gitImport, async () => {
      attempts++;
      throw new UnrecoverableError('ref not found');
    });
    const job = await queues.enqueue(QUEUES.gitImport, jobIdFor('perm-1'), { spaceId: 's' });
    await expect(queues.waitFor(QUEUES.gitImport, job, 5000)).rejects.toThrow(/ref not found/);
    expect(attempts).toBe(1);
  });

  it('retries a transient failure after the delay it was given (QUIRE_JOB_RETRY_DELAY_MS), 1 s by default, doubling', async () => {
    // Nothing works the git export queue here: the jobs stay waiting, their options as enqueued.
    const quick = new JobQueues(redis, prefix, undefined, undefined, 50);
    try {
      const byDefault = await queues.enqueue(QUEUES.gitExport, jobIdFor('delay-default'), { spaceId: 's' });
      const given = await quick.enqueue(QUEUES.gitExport, jobIdFor('delay-given'), { spaceId: 's' });
      expect(byDefault.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential', delay: 1000 } });
      expect(given.opts).toMatchObject({ attempts: 5, backoff: { type: 'exponential', delay: 50 } });
    } finally {
      await quick.close();
    }
  });
});
