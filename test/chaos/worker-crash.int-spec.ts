import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Job } from 'bullmq';
import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { loadConfig, QuireConfig } from '@quire/platform/config/config';
import { startApi, StartedApi } from '../../apps/api/src/bootstrap';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase, uniquePrefix } from '../support/databases';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { ADMIN_TOKEN } from '../support/quire-app';
import { startHoldingProxy, until, WorkerProcess } from './chaos-support';

/**
 * Chaos: the worker process dies (SIGKILL) in the middle of a git import. Another worker
 * process takes the job over once BullMQ declares it stalled; the import completes once: one
 * revision, one completion, every event of the request still there.
 */
describe('chaos: a worker killed in the middle of an import', () => {
  let database: TestDatabase;
  let dataDir: string;
  let gitRoot: string;
  let config: QuireConfig;
  let api: StartedApi;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let proxy: Awaited<ReturnType<typeof startHoldingProxy>>;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('quire_chaos');
    dataDir = mkdtempSync(join(tmpdir(), 'quire-chaos-'));
    gitRoot = mkdtempSync(join(tmpdir(), 'quire-chaos-git-'));
    config = loadConfig(
      { LOG_LEVEL: 'warn' },
      { port: 0, host: '127.0.0.1', dataDir, databaseUrl: database.url, redisUrl: TEST_REDIS_URL, queuePrefix: uniquePrefix('chaos'), adminToken: ADMIN_TOKEN, gitAllowedHosts: ['127.0.0.1'] },
    );
    // The API (and the projections) in this process; the workers in their own processes.
    api = await startApi(config, { runProjections: true, redis: true });
    git = await startGitHttpServer({ root: gitRoot });
    proxy = await startHoldingProxy(git.url);
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) await w.kill().catch(() => undefined);
    await proxy?.close();
    await git?.close();
    await api?.close();
    const redis = api?.runtime.redis;
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(gitRoot, { recursive: true, force: true });
    void redis;
  }, 60_000);

  const http = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(api.url + path, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  it('completes the import exactly once after another worker takes over the stalled job', async () => {
    const pages = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`page-${i}.md`, `# Page ${i}\n\nText ${i}.\n`]));
    await createRepoFromFiles(gitRoot, 'handbook', {
      'README.md': '# Handbook\n',
      'SUMMARY.md': `* [Handbook](README.md)\n${Object.keys(pages).map((p, i) => `* [Page ${i}](${p})\n`).join('')}`,
      ...pages,
    });
    const user = (await http('POST', '/v1/users', ADMIN_TOKEN, { displayName: 'Chaos', email: `chaos.${Date.now()}@example.com` })).body;
    const token = (await http('POST', `/v1/users/${user.id}/tokens`, ADMIN_TOKEN, {})).body.token;
    const org = (await http('POST', '/v1/orgs', token, { title: 'Chaos' })).body;
    const space = (await http('POST', `/v1/orgs/${org.id}/spaces`, token, { title: 'Crashy' })).body;

    const first = new WorkerProcess(config);
    workers.push(first);
    await first.start();
    expect((await http('POST', `/v1/spaces/${space.id}/git/import`, token, { url: `${proxy.url}/handbook.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const [run] = (await http('GET', `/v1/spaces/${space.id}/git/imports`, token)).body.items;

    // The first worker has started the import and is fetching the pack: kill it there.
    await proxy.held;
    await until('the import to be running', async () => (await http('GET', `/v1/spaces/${space.id}/git/imports`, token)).body.items[0].status === 'running');
    await first.kill();
    proxy.release();

    // Its job lock outlives it (lockDuration, 60 s), and the stalled-job check runs at most once
    // per stalledInterval (30 s) across workers: expire both now rather than wait (as the merge
    // chaos test does). The new worker's first check then marks the job, its next one hands it over.
    const redis = api.runtime.redis!;
    const jobId = jobIdFor(run.id);
    expect(await redis.del(`${api.runtime.config.queuePrefix}:${QUEUES.gitImport}:${jobId}:lock`)).toBe(1);
    await redis.del(`${api.runtime.config.queuePrefix}:${QUEUES.gitImport}:stalled-check`);
    const second = new WorkerProcess(config);
    workers.push(second);
    await second.start();

    // BullMQ's stalled-job check moves the job back to wait; the second worker runs it.
    const done = await until(
      'the import to complete',
      async () => {
        const item = (await http('GET', `/v1/spaces/${space.id}/git/imports`, token)).body.items[0];
        return item.status === 'completed' || item.status === 'failed' ? item : undefined;
      },
      120_000,
      250,
    ).catch(async (err) => {
      const stuck = await Job.fromId(api.runtime.jobs!.queue(QUEUES.gitImport), jobId);
      const state = `job ${jobId}: ${await stuck?.getState()}, stalled ${stuck?.stalledCounter}; space lock: ${await redis.get(`${api.runtime.config.queuePrefix}:lock:git-import:${space.id}`)}`;
      throw new Error(`${err.message}\n${state}\n--- second worker's log ---\n${second.logs.slice(-2000)}`);
    });
    expect(done).toMatchObject({ id: run.id, status: 'completed' });
    // The import is complete once its events are recorded; the job finishes a moment later, when
    // the worker has seen the read models catch up.
    const queue = api.runtime.jobs!.queue(QUEUES.gitImport);
    const job = await until('the job to complete', async () => {
      const current = (await Job.fromId(queue, jobId))!;
      return (await current.getState()) === 'completed' ? current : undefined;
    }, 10_000, 50);
    expect(job.stalledCounter).toBe(1);

    // Once: one start, one revision, one move of the live revision, one completion; nothing lost.
    const events = await api.runtime.store.readStream(`space-${space.id}`);
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      // The space's creation (its creator's grant, its first revision going live) ...
      'SpaceCreated',
      'SpaceUserPermissionSet',
      'RevisionCreated',
      'SpaceRevisionChanged',
      // ... then the import, once, although two workers ran it.
      'GitImportRequested',
      'GitImportStarted',
      'RevisionCreated',
      'SpaceRevisionChanged',
      'GitImportCompleted',
    ]);
    expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => i + 1));
    const completed = events.filter((e) => e.type === 'GitImportCompleted');
    expect(completed).toHaveLength(1);
    const importRevisions = events.filter((e) => e.type === 'RevisionCreated' && (e.data as any).kind === 'import');
    expect(importRevisions).toHaveLength(1);
    expect((importRevisions[0].data as any).revision).toBe((completed[0].data as any).revision);

    const live = (await http('GET', `/v1/spaces/${space.id}/content`, token)).body;
    expect(live.id).toBe((completed[0].data as any).revision);
    expect(live.pages).toHaveLength(31);
    expect(second.logs).toMatch(/git import completed/);
  }, 180_000);
});
