import Redis from 'ioredis';
import pino from 'pino';
import { Writable } from 'stream';
import { TEST_REDIS_URL, uniquePrefix } from '@quire/test-support/databases';
import { gitRunSecretKey } from './git-run-secret';
import { claimQueuePrefix, installationQueuePrefix, queueOwnerKey } from './installation-scope';
import { adoptLegacyJobs } from './legacy-queues';
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

  it('an installation\'s idle workers under the same configured prefix never see another\'s job: its own worker runs it at once', async () => {
    // Both installations were given `prefix`; each runtime scopes it by its id (see Runtime.start).
    const prefixA = installationQueuePrefix(prefix, 'inst-a');
    const prefixB = installationQueuePrefix(prefix, 'inst-b');
    const queues = new JobQueues(redis, prefixA, undefined, 'inst-a');
    const taken: string[] = [];
    const workersB = new JobWorkers(redis, prefixB, pino({ level: 'silent' }), 'inst-b');
    closers.push(() => queues.close(), () => workersB.close());
    workersB.register<{ n: number }, string>(QUEUES.changeRequestMerge, async (job) => {
      taken.push(`b:${job.data.n}`);
      return 'b';
    });
    const workersA = new JobWorkers(redis, prefixA, pino({ level: 'silent' }), 'inst-a');
    closers.push(() => workersA.close());
    workersA.register<{ n: number }, string>(QUEUES.changeRequestMerge, async (job) => `a:${job.data.n}`);

    const jobs = await Promise.all(Array.from({ length: 10 }, (_, n) => queues.enqueue(QUEUES.changeRequestMerge, jobIdFor(`inst-job-${n}`), { n })));
    expect(jobs[0].data).toEqual({ n: 0, installationId: 'inst-a' });
    const results = await Promise.all(jobs.map((job) => queues.waitFor(QUEUES.changeRequestMerge, job, 5_000)));
    expect(results).toEqual(Array.from({ length: 10 }, (_, n) => `a:${n}`));
    expect(taken).toEqual([]);
    const done = await Promise.all(jobs.map((job) => queues.queue(QUEUES.changeRequestMerge).getJob(job.id!)));
    expect(done.map((j) => j?.attemptsStarted)).toEqual(Array(10).fill(1));
  });

  it('a job naming another installation found in an installation\'s queues fails once, logged, and is not run', async () => {
    const p = `${prefix}-wrong`;
    const queues = new JobQueues(redis, p, undefined, 'inst-a');
    const log = capturingLogger();
    const ran: number[] = [];
    const workersB = new JobWorkers(redis, p, log.logger, 'inst-b');
    closers.push(() => queues.close(), () => workersB.close());
    workersB.register<{ n: number }, string>(QUEUES.changeRequestMerge, async (job) => {
      ran.push(job.data.n);
      return 'b';
    });
    const job = await queues.enqueue(QUEUES.changeRequestMerge, jobIdFor('inst-wrong-1'), { n: 1 });
    await expect(queues.waitFor(QUEUES.changeRequestMerge, job, 10_000)).rejects.toThrow(/installation inst-a in the queues of installation inst-b/);
    expect(ran).toEqual([]);
    const failed = await queues.queue(QUEUES.changeRequestMerge).getJob(job.id!);
    expect(failed?.attemptsMade).toBe(1);
    expect(log.lines.find((l) => l.jobId === job.id)).toMatchObject({ level: 50, jobInstallation: 'inst-a', installation: 'inst-b', msg: expect.stringMatching(/another installation/) });
  });

  it('moves an installation\'s jobs waiting in the queues directly under a configured prefix (from before per-installation queues) to its own, with their credentials', async () => {
    const legacyPrefix = `${prefix}-legacy`;
    const scoped = installationQueuePrefix(legacyPrefix, 'inst-a');
    // What the previous version left: jobs of both installations, and one from before jobs carried an id.
    const legacy = new JobQueues(redis, legacyPrefix);
    closers.push(() => legacy.close());
    await legacy.enqueue(QUEUES.gitImport, jobIdFor('legacy-import-a'), { spaceId: 's1', importId: 'imp-a', installationId: 'inst-a' });
    await legacy.enqueue(QUEUES.changeRequestMerge, jobIdFor('legacy-merge-b'), { n: 2, installationId: 'inst-b' });
    await legacy.enqueue(QUEUES.changeRequestMerge, jobIdFor('legacy-merge-old'), { n: 3 }, { delay: 60_000 });
    await redis.set(gitRunSecretKey(legacyPrefix, QUEUES.gitImport, 'imp-a'), '{"auth":{"username":"u","password":"p"}}', 'EX', 600);

    const own = new JobQueues(redis, scoped, undefined, 'inst-a');
    closers.push(() => own.close());
    await expect(adoptLegacyJobs(redis, legacyPrefix, own, scoped, 'inst-a', { ownsLegacyPrefix: true })).resolves.toBe(2);
    // Idempotent: every process of the installation runs it at start.
    await expect(adoptLegacyJobs(redis, legacyPrefix, own, scoped, 'inst-a', { ownsLegacyPrefix: true })).resolves.toBe(0);

    const moved = await own.queue(QUEUES.gitImport).getJob(jobIdFor('legacy-import-a'));
    expect(moved?.data).toEqual({ spaceId: 's1', importId: 'imp-a', installationId: 'inst-a' });
    expect(await moved?.getState()).toBe('waiting');
    expect(await redis.get(gitRunSecretKey(scoped, QUEUES.gitImport, 'imp-a'))).toContain('"password":"p"');
    expect(await redis.ttl(gitRunSecretKey(scoped, QUEUES.gitImport, 'imp-a'))).toBeGreaterThan(0);
    expect(await redis.exists(gitRunSecretKey(legacyPrefix, QUEUES.gitImport, 'imp-a'))).toBe(0);
    // The job without an id is the prefix owner's, and waits no longer.
    expect(await (await own.queue(QUEUES.changeRequestMerge).getJob(jobIdFor('legacy-merge-old')))?.getState()).toBe('waiting');
    // The other installation's job stays for it; nothing of ours is left behind.
    expect(await own.queue(QUEUES.changeRequestMerge).getJob(jobIdFor('legacy-merge-b'))).toBeUndefined();
    expect((await legacy.queue(QUEUES.changeRequestMerge).getJobs(['wait', 'delayed'])).map((j) => j.id)).toEqual([jobIdFor('legacy-merge-b')]);
    expect(await legacy.queue(QUEUES.gitImport).getJobCounts('wait', 'delayed')).toEqual({ wait: 0, delayed: 0 });

    // Installation B, not the prefix's owner, takes its own job and leaves the id-less one alone.
    const scopedB = installationQueuePrefix(legacyPrefix, 'inst-b');
    const ownB = new JobQueues(redis, scopedB, undefined, 'inst-b');
    closers.push(() => ownB.close());
    await legacy.enqueue(QUEUES.changeRequestMerge, jobIdFor('legacy-merge-old-2'), { n: 4 });
    await expect(adoptLegacyJobs(redis, legacyPrefix, ownB, scopedB, 'inst-b', { ownsLegacyPrefix: false })).resolves.toBe(1);
    expect(await ownB.queue(QUEUES.changeRequestMerge).getJob(jobIdFor('legacy-merge-b'))).toBeDefined();
    expect((await legacy.queue(QUEUES.changeRequestMerge).getJobs(['wait', 'delayed'])).map((j) => j.id)).toEqual([jobIdFor('legacy-merge-old-2')]);
  });

  it('claims a queue prefix for the first installation and names it to any other', async () => {
    const p = `${prefix}-claim`;
    await expect(claimQueuePrefix(redis, p, 'inst-a')).resolves.toBeUndefined();
    await expect(claimQueuePrefix(redis, p, 'inst-a')).resolves.toBeUndefined();
    await expect(claimQueuePrefix(redis, p, 'inst-b')).resolves.toBe('inst-a');
    expect(await redis.get(queueOwnerKey(p))).toBe('inst-a');
  });
});
