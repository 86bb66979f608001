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
});
