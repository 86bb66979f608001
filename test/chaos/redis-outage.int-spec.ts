import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';
import { freePort, PrivateRedis, sleep, until } from './chaos-support';

const OUTAGE_MS = 10_000;

interface Outcome {
  at: number;
  status: number;
  ms: number;
  body?: any;
}

/**
 * Chaos: Redis (its own private server, never the shared one) stops for 10 s while clients read
 * and trigger imports. Reads keep answering; queue-backed commands (imports, a merge) answer 503
 * at once with GitBook's error body and record nothing; /metrics and Bull Board answer promptly; when Redis is back everything recovers by itself,
 * and every import that was accepted completes, even those whose jobs Redis lost.
 */
describe('chaos: Redis stops for 10 s under load', () => {
  let redis: PrivateRedis;
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let gitRoot: string;

  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    gitRoot = mkdtempSync(join(tmpdir(), 'quire-chaos-git-'));
    git = await startGitHttpServer({ root: gitRoot });
    q = await startTestQuire({ redisUrl: redis.url });
  }, 60_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    await redis?.stop();
    rmSync(gitRoot, { recursive: true, force: true });
  });

  it('serves reads, refuses slow commands with 503, and recovers without help', async () => {
    await createRepoFromFiles(gitRoot, 'docs', { 'README.md': '# Docs\n', 'SUMMARY.md': '* [Docs](README.md)\n' });
    const user = await q.createUser('Outage');
    const orgId = (await q.http('POST', '/v1/orgs', { token: user.token, body: { title: 'Outage' } })).body.id;
    const space = (await user.api.orgs.createSpace(orgId, { title: 'Under load' } as any)).data;
    // One import first, so that the page read below keeps its path through the imports to come
    // (each imports the same commit).
    expect((await q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: user.token, body: { url: `${git.url}/docs.git`, ref: 'refs/heads/main' } })).status).toBe(204);
    await until('the first import to complete', async () => {
      const { body } = await q.http('GET', `/v1/spaces/${space.id}/git/imports`, { token: user.token });
      return body.items[0]?.status === 'completed';
    });
    const { data: revision } = await user.api.spaces.getCurrentRevision(space.id);
    const pagePath = (revision.pages[0] as any).path;

    // A change request with a change, to merge during the outage.
    const cr = (await user.api.spaces.createChangeRequest(space.id, { subject: 'During the outage' })).data;
    await user.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Outage', document: { markdown: '# Outage\n' } }] } as any);

    let outage: { from: number; to: number } | undefined;
    let stopping = false;
    const reads: Outcome[] = [];
    const imports: Outcome[] = [];
    const timed = async (list: Outcome[], call: () => Promise<{ status: number; body: any }>) => {
      const at = Date.now();
      const r = await call();
      list.push({ at, status: r.status, ms: Date.now() - at, body: r.body });
    };
    const readers = Array.from({ length: 4 }, async (_, i) => {
      while (!stopping) {
        const paths = [`/v1/spaces/${space.id}`, '/v1/user', `/v1/spaces/${space.id}/content/path/${pagePath}`, `/v1/orgs/${orgId}/spaces`];
        await timed(reads, () => q.http('GET', paths[(reads.length + i) % paths.length], { token: user.token }));
        await sleep(20);
      }
    });
    const importer = (async () => {
      while (!stopping) {
        await timed(imports, () => q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: user.token, body: { url: `${git.url}/docs.git`, ref: 'refs/heads/main' } }));
        await sleep(250);
      }
    })();

    await sleep(2000);
    outage = { from: Date.now(), to: 0 };
    await redis.stop();
    await sleep(OUTAGE_MS / 2);
    // A merge is refused at once, like an import, and records nothing.
    const mergeAt = Date.now();
    const merge = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: user.token });
    const mergeMs = Date.now() - mergeAt;
    expect(merge).toMatchObject({ status: 503, body: { error: { code: 503, message: expect.stringMatching(/Redis.*unavailable/) } } });
    expect(mergeMs).toBeLessThan(1000);
    // The operator's views answer promptly: /metrics says the queues are unavailable, Bull Board's API answers 503.
    const metricsAt = Date.now();
    const metrics = await q.http('GET', '/metrics', { token: q.config.adminToken });
    const metricsMs = Date.now() - metricsAt;
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('quire_queue_up{queue="change-request-merge"} 0');
    expect(metrics.body).toContain('quire_redis_up 0');
    expect(metricsMs).toBeLessThan(2000);
    const boardAt = Date.now();
    const board = await q.http('GET', '/admin/queues/api/queues', { token: q.config.adminToken });
    const boardMs = Date.now() - boardAt;
    expect(board).toMatchObject({ status: 503, body: { error: { code: 503, message: expect.stringMatching(/Redis.*unavailable/) } } });
    expect(boardMs).toBeLessThan(2000);
    await sleep(Math.max(0, outage.from + OUTAGE_MS - Date.now()));
    // Readiness says what is wrong meanwhile.
    const ready = await q.http('GET', '/health/ready');
    expect(ready).toMatchObject({ status: 503, body: { checks: { redis: { status: 'down' } } } });
    await redis.start();
    outage.to = Date.now();

    // Recovery needs no operator: the next import is accepted again.
    const recovered = await until('imports to be accepted again', async () => imports.find((o) => o.at > outage!.to && o.status === 204), 30_000);
    const recoveryMs = recovered.at - outage.to;
    await sleep(1000);
    stopping = true;
    await Promise.all([...readers, importer]);

    // Reads: every one answered 200, during the outage too, without waiting on Redis.
    expect(reads.filter((r) => r.status !== 200)).toEqual([]);
    const during = reads.filter((r) => r.at > outage!.from + 200 && r.at + r.ms < outage!.to);
    expect(during.length).toBeGreaterThan(50);
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(1000);

    // Imports: 204 before and after; during the outage 503 at once, with GitBook's error body.
    const refused = imports.filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThan(10);
    for (const o of refused) {
      expect(o.body).toEqual({ error: { code: 503, message: expect.stringMatching(/Redis.*unavailable|unavailable/) } });
      expect(o.ms).toBeLessThan(1000);
    }
    expect(imports.filter((o) => o.status !== 204 && o.status !== 503)).toEqual([]);
    expect(imports.filter((o) => o.at < outage!.from - 100).every((o) => o.status === 204)).toBe(true);
    expect(recoveryMs).toBeLessThan(10_000);

    // Every accepted import is recorded and completes (jobs Redis lost are enqueued again from the
    // events); no refused one left a trace.
    const accepted = imports.filter((o) => o.status === 204).length;
    const runs = await until(
      'every accepted import to settle',
      async () => {
        const { body } = await q.http('GET', `/v1/spaces/${space.id}/git/imports?limit=1000`, { token: user.token });
        return body.items.every((i: any) => !['queued', 'running'].includes(i.status)) ? body.items : undefined;
      },
      90_000,
      250,
    );
    expect(runs).toHaveLength(accepted + 1); // and the first import, made before the load
    expect(runs.filter((r: any) => !['completed', 'skipped'].includes(r.status))).toEqual([]);
    // The refused merge left no trace: the change request is still a draft, and merges now.
    expect((await user.api.spaces.getChangeRequestById(space.id, cr.id)).data.status).toBe('draft');
    expect((await user.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    expect(q.violations).toEqual([]);
  }, 180_000);
});
