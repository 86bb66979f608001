import Redis from 'ioredis';
import pino from 'pino';
import { Writable } from 'stream';
import { TEST_REDIS_URL, uniquePrefix } from '@quire/test-support/databases';
import { until } from '../../../test/chaos/chaos-support';
import { claimQueuePrefix, queueOwnerKey } from './installation-scope';
import { jobIdFor, JobQueues } from './job-queues';
import { JobWorkers } from './job-workers';
import { QUEUES } from './queues';

/** A pino logger whose lines the test can read. */
function capturingLogger() {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('installation-scoped jobs (real Redis)', () => {
  let redis: Redis;
  const prefix = uniquePrefix('inst-jobs');
  const closers: Array<() => Promise<void>> = [];

  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('a worker leaves another installation\'s job alone (not failed, logged) and that installation\'s worker runs it', async () => {
    const queues = new JobQueues(redis, prefix, undefined, 'inst-a');
    const foreign = capturingLogger();
    const taken: string[] = [];
    const workersB = new JobWorkers(redis, prefix, foreign.logger, 'inst-b');
    closers.push(() => queues.close(), () => workersB.close());
    workersB.register<{ n: number }, string>(QUEUES.changeRequestMerge, async (job) => {
      taken.push(`b:${job.data.n}`);
      return 'b';
    });

    const job = await queues.enqueue(QUEUES.changeRequestMerge, jobIdFor('inst-job-1'), { n: 1 });
    expect(job.data).toEqual({ n: 1, installationId: 'inst-a' });
    // B takes it, sees it is A's and puts it back, delayed.
    await until('the other installation\'s worker to take the job', async () => foreign.lines.some((l) => l.jobId === job.id), 10_000, 20);
    const line = foreign.lines.find((l) => l.jobId === job.id);
    expect(line).toMatchObject({ level: 40, jobInstallation: 'inst-a', installation: 'inst-b', msg: expect.stringMatching(/another installation/) });
    await until('the job to wait, delayed', async () => (await queues.queue(QUEUES.changeRequestMerge).getJobState(job.id!)) === 'delayed', 10_000, 20);
    expect(taken).toEqual([]);

    // A's own worker runs it when it comes back (B stopped, so the test does not hang on who wins
    // the race for the job; the e2e spec has both installations compete for ten merges).
    await workersB.close();
    const workersA = new JobWorkers(redis, prefix, pino({ level: 'silent' }), 'inst-a');
    closers.push(() => workersA.close());
    workersA.register<{ n: number }, string>(QUEUES.changeRequestMerge, async () => 'a');
    await expect(queues.waitFor(QUEUES.changeRequestMerge, job, 15_000)).resolves.toBe('a');
    expect(taken).toEqual([]);
    const done = await queues.queue(QUEUES.changeRequestMerge).getJob(job.id!);
    expect(done?.failedReason).toBeFalsy();
  });

  it('claims a queue prefix for the first installation and names it to any other', async () => {
    const p = `${prefix}-claim`;
    await expect(claimQueuePrefix(redis, p, 'inst-a')).resolves.toBeUndefined();
    await expect(claimQueuePrefix(redis, p, 'inst-a')).resolves.toBeUndefined();
    await expect(claimQueuePrefix(redis, p, 'inst-b')).resolves.toBe('inst-a');
    expect(await redis.get(queueOwnerKey(p))).toBe('inst-a');
  });
});
