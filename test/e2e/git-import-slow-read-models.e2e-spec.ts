import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { until, WorkerProcess } from '../chaos/chaos-support';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

describe('git import whose read models take longer than the worker waits for them (e2e)', () => {
  let q: TestQuire;
  let worker: WorkerProcess;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-git-slow-'));
    git = await startGitHttpServer({ root });
    // The API runs the projections; the worker, in its own process, waits for them 100 ms at most
    // (as a 10,000-page import on a busy host outlasts the usual 30 s).
    q = await startTestQuire({}, { worker: false });
    worker = new WorkerProcess(q.config, { env: { QUIRE_COMMAND_TIMEOUT_MS: '100' } });
    await worker.start();
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('completes the job (the import is recorded), and the page goes live and searchable', async () => {
    const owner = await q.createUser('Importer');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Slow Org' } })).body.id;
    const space = (await q.http('POST', `/v1/orgs/${org}/spaces`, { token: owner.token, body: { title: 'Slow' } })).body.id;
    // 400 pages: no host indexes them within the worker's 100 ms.
    const files: Record<string, string> = { 'README.md': '# Welcome\n\nThe lanternfish lives here.\n' };
    const summary = ['* [Welcome](README.md)'];
    for (let i = 0; i < 400; i++) {
      files[`pages/page-${i}.md`] = `# Page ${i}\n\n${'Words about the topic of this page, to index. '.repeat(40)}\n\n## Details\n\nMore text ${i}.\n`;
      summary.push(`* [Page ${i}](pages/page-${i}.md)`);
    }
    files['SUMMARY.md'] = `${summary.join('\n')}\n`;
    await createRepoFromFiles(root, 'slow', files);
    const requested = await q.http('POST', `/v1/spaces/${space}/git/import`, { token: owner.token, body: { url: `${git.url}/slow.git`, ref: 'refs/heads/main' } });
    expect(requested.status).toBe(204);
    const [run] = await until('the import to settle', async () => {
      const items = (await q.http('GET', `/v1/spaces/${space}/git/imports`, { token: owner.token })).body.items;
      return items.length && !['queued', 'running'].includes(items[0].status) && items;
    });
    expect(run.status).toBe('completed');
    const queue = q.started.runtime.jobs!.queue(QUEUES.gitImport);
    const state = await until('the job to finish', async () => {
      const s = await queue.getJobState(jobIdFor(run.id));
      return ['completed', 'failed'].includes(s) && s;
    });
    expect({ state, failedReason: (await queue.getJob(jobIdFor(run.id)))?.failedReason }).toEqual({ state: 'completed', failedReason: undefined });
    expect(worker.logs).toContain('read models still catching up');
    await until('the page to be searchable', async () => {
      const found = await q.http('GET', `/v1/spaces/${space}/search?query=lanternfish`, { token: owner.token });
      return found.status === 200 && found.body.items.length > 0;
    });
  }, 120_000);
});
