import { execFile } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { jobsCommand } from '../../apps/cli/src/jobs/jobs.command';
import { createEmptyRepo, createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { settledGitRuns } from '../support/git-runs';
import { ADMIN_TOKEN, startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

/** Captures what a CLI command writes. */
const sink = () => {
  const chunks: string[] = [];
  return { out: { write: (s: string) => (chunks.push(s), true) }, text: () => chunks.join('') };
};

describe("the operator's view: Bull Board, /metrics, `cli jobs` (e2e)", () => {
  let q: TestQuire;
  let user: User;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let orgId: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-ops-'));
    git = await startGitHttpServer({ root, allowAnonymousPush: true });
    q = await startTestQuire();
    user = await q.createUser('Operator Watcher');
    orgId = (await q.http('POST', '/v1/orgs', { token: user.token, body: { title: 'Ops' } })).body.id;
  });
  afterAll(async () => {
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(q.url + path, { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` });

  async function importInto(title: string, ref: string, repo = 'docs') {
    const space = (await user.api.orgs.createSpace(orgId, { title } as any)).data;
    const r = await q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: user.token, body: { url: `${git.url}/${repo}.git`, ref } });
    expect(r.status).toBe(204);
    return { space, run: await settled(space.id) };
  }
  async function settled(spaceId: string, count = 1) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { body } = await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: user.token });
      const done = body.items.filter((i: any) => !['queued', 'running'].includes(i.status));
      if (done.length >= count) return done[0];
      if (Date.now() > deadline) throw new Error(`imports not settled: ${JSON.stringify(body.items)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('serves Bull Board under /admin/queues to the instance administrator only', async () => {
    const anonymous = await get('/admin/queues');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Quire operators"/);
    expect(await anonymous.json()).toEqual({ error: { code: 401, message: expect.stringMatching(/instance administrator/) } });
    expect((await get('/admin/queues', bearer(user.token))).status).toBe(403);
    expect((await get('/admin/queues', bearer('not-a-token'))).status).toBe(401);

    for (const headers of [bearer(ADMIN_TOKEN), basic(ADMIN_TOKEN)]) {
      const page = await get('/admin/queues', headers);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toMatch(/Quire jobs/);
    }
    const api = await get('/admin/queues/api/queues', bearer(ADMIN_TOKEN));
    expect(api.status).toBe(200);
    const names = (((await api.json()) as any).queues as any[]).map((x) => x.name).sort();
    expect(names).toEqual(['change-request-merge', 'change-request-update', 'git-export', 'git-import']);

    // Every route under the prefix is guarded, however the path is spelled.
    for (const path of ['/admin/queues/api/queues', '/admin/queues/api/queues/', '/admin/%71ueues/api/queues', '/admin/queues/static/css/main.css']) {
      const r = await get(path, bearer(user.token));
      expect([403, 404]).toContain(r.status);
      expect([401, 404]).toContain((await get(path)).status);
    }
  });

  it('exposes Prometheus metrics: HTTP latency by route, queue counts, job durations, projector lag and failures', async () => {
    await createRepoFromFiles(root, 'docs', { 'README.md': '# Docs\n', 'SUMMARY.md': '* [Docs](README.md)\n' });
    const { run } = await importInto('Measured', 'refs/heads/main');
    expect(run.status).toBe('completed');
    expect((await q.http('GET', '/v1/user', { token: user.token })).status).toBe(200);

    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', bearer(user.token))).status).toBe(403);
    // The job's completion reaches the histogram through the queue's event stream.
    let text = '';
    // The import's events are recorded a moment before BullMQ moves its job to completed.
    const settled = (t: string) =>
      /quire_job_duration_seconds_count\{queue="git-import",outcome="completed"\} [1-9]/.test(t) && /quire_queue_jobs\{queue="git-import",state="completed"\} [1-9]/.test(t);
    for (let i = 0; i < 50 && !settled(text); i++) {
      const r = await get('/metrics', bearer(ADMIN_TOKEN));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      text = await r.text();
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(text).toMatch(/quire_job_duration_seconds_count\{queue="git-import",outcome="completed"\} [1-9]/);
    expect(text).toMatch(/quire_http_request_duration_seconds_bucket\{le="[\d.]+",method="GET",route="\/v1\/user",status="200"\} [1-9]/);
    expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="POST",route="\/v1\/spaces\/:spaceId\/git\/import",status="204"\} 1/);
    expect(text).toMatch(/quire_queue_jobs\{queue="git-import",state="completed"\} [1-9]/);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(text).toContain(`quire_queue_jobs{queue="git-import",state="${state}"}`);
    expect(text).toContain('quire_queue_jobs{queue="change-request-merge",state="waiting"} 0');
    expect(text).toMatch(/quire_projection_events_behind\{projection="identity"\} \d+/);
    expect(text).toContain('quire_projection_failed{projection="git-imports"} 0');
    expect(text).toContain('quire_redis_up 1');
    expect(text).toMatch(/quire_process_resident_memory_bytes \d+/);
    // No raw URL (ids) becomes a label.
    expect(text).not.toMatch(/route="\/v1\/spaces\/[A-Za-z0-9]{20}/);
  });

  it('`jobs` lists every queue with recent and failed jobs; `jobs retry` re-requests a failed import from its event and refuses a completed one', async () => {
    // Fails: the branch does not exist yet.
    await createRepoFromFiles(root, 'retry', { 'README.md': '# Now\n', 'SUMMARY.md': '* [Now](README.md)\n' });
    const { space, run: failed } = await importInto('Retried', 'refs/heads/later', 'retry');
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'ref_not_found' } });

    const listed = sink();
    await jobsCommand(q.started.runtime, [], listed.out);
    expect(listed.text()).toMatch(/^git-import {2}waiting \d+ {2}active \d+ {2}delayed \d+ {2}failed [1-9]\d* {2}completed \d+$/m);
    expect(listed.text()).toMatch(/^change-request-merge /m);
    expect(listed.text()).toMatch(/^change-request-update /m);
    expect(listed.text()).toMatch(new RegExp(`failed:\\n(.*\\n)*\\s+ev-${failed.id}\\s+failed .*attempts 1/5 .*reason: ref_not_found`));

    await createRepoFromFiles(root, 'retry', { 'README.md': '# Later\n', 'SUMMARY.md': '* [Later](README.md)\n' }, { branch: 'later' });
    const retried = sink();
    await jobsCommand(q.started.runtime, ['retry', `ev-${failed.id}`], retried.out);
    const again = /requested again as import (\S+) \(job (\S+)\)/.exec(retried.text());
    expect(again).not.toBeNull();
    const runs = await settled(space.id, 2);
    expect(runs).toMatchObject({ id: again![1], status: 'completed' });
    // The failure stays recorded; the retry is a new import of the same request.
    const { body } = await q.http('GET', `/v1/spaces/${space.id}/git/imports`, { token: user.token });
    expect(body.items.map((i: any) => i.status).sort()).toEqual(['completed', 'failed']);
    const requested = (await q.started.runtime.store.readStream(`space-${space.id}`)).filter((e) => e.type === 'GitImportRequested');
    expect(requested.map((e) => (e.metadata as any)?.retryOf)).toEqual([undefined, failed.id]);

    // Completed: refused, by job id or import id.
    await expect(jobsCommand(q.started.runtime, ['retry', again![1]], sink().out)).rejects.toThrow(/already completed/);
    await expect(jobsCommand(q.started.runtime, ['retry', again![2]], sink().out)).rejects.toThrow(/already completed/);
    await expect(jobsCommand(q.started.runtime, ['retry', 'no-such-job'], sink().out)).rejects.toThrow(/No job, git import or git export/);
    await expect(jobsCommand(q.started.runtime, ['frobnicate'], sink().out)).rejects.toThrow(/Usage/);
  });

  it('`jobs retry` knows export ids: a failed export is requested again as a new export, a completed one is refused', async () => {
    const space = (await user.api.orgs.createSpace(orgId, { title: 'Exported' } as any)).data;
    const exports = (count: number) => settledGitRuns(q, user.token, space.id, 'exports', count);
    // Fails for good: no such repository yet.
    const body = { url: `${git.url}/export-target.git`, ref: 'refs/heads/main', commitMessage: 'Export' };
    expect((await q.http('POST', `/v1/spaces/${space.id}/git/export`, { token: user.token, body })).status).toBe(204);
    const [failed] = await exports(1);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'repo_not_found' } });

    await createEmptyRepo(root, 'export-target');
    const retried = sink();
    await jobsCommand(q.started.runtime, ['retry', failed.id], retried.out);
    const again = /Export \S+ had failed: requested again as export (\S+) \(job (\S+)\)/.exec(retried.text());
    expect(again).not.toBeNull();
    const [completed] = await exports(2);
    expect(completed).toMatchObject({ id: again![1], status: 'completed', pushed: true });
    const requested = (await q.started.runtime.store.readStream(`space-${space.id}`)).filter((e) => e.type === 'GitExportRequested');
    expect(requested.map((e) => (e.metadata as any)?.retryOf)).toEqual([undefined, failed.id]);

    await expect(jobsCommand(q.started.runtime, ['retry', again![1]], sink().out)).rejects.toThrow(/Export .* already completed/);
    await expect(jobsCommand(q.started.runtime, ['retry', again![2]], sink().out)).rejects.toThrow(/Export .* already completed/);
  }, 90_000);

  it('`jobs retry` gives a lost job back to an unfinished import (Redis lost it), and `npm run cli -- jobs` runs as a process', async () => {
    await createRepoFromFiles(root, 'lost', { 'README.md': '# Lost\n', 'SUMMARY.md': '* [Lost](README.md)\n' });
    const space = (await user.api.orgs.createSpace(orgId, { title: 'Lost job' } as any)).data;
    // The request is recorded but its job never reaches Redis (as when Redis dies in between).
    const importId = `lost${Date.now()}`;
    await q.started.runtime.executor.execute({
      stream: `space-${space.id}`,
      aggregate: { initialState: () => null, evolve: (s: null) => s },
      decide: () => [
        { type: 'GitImportRequested', data: { spaceId: space.id, request: { importId, url: `${git.url}/lost.git`, ref: 'refs/heads/main', hasCredentials: false }, requestedBy: user.id, at: new Date().toISOString() } },
      ],
    });
    const out = sink();
    await jobsCommand(q.started.runtime, ['retry', importId], out.out);
    expect(out.text()).toMatch(/is queued: its job was lost: enqueued again/);
    expect(await settled(space.id)).toMatchObject({ id: importId, status: 'completed' });

    const env = { ...process.env, DATABASE_URL: q.config.databaseUrl, REDIS_URL: q.config.redisUrl, QUIRE_QUEUE_PREFIX: q.config.queuePrefix, DATA_DIR: q.config.dataDir, LOG_LEVEL: 'silent' };
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'jobs'], { env, cwd: join(__dirname, '../..') });
    expect(stdout).toMatch(/^git-import {2}waiting 0 {2}active 0 {2}delayed 0 {2}failed \d+ {2}completed [1-9]\d*$/m);
    expect(stdout).toContain(`ev-${importId}`);
  }, 90_000);
});
