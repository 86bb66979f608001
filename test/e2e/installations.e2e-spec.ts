import { installationQueuePrefix, queueOwnerKey } from '@quire/jobs/installation-scope';
import { QUEUES } from '@quire/jobs/queues';
import { uniquePrefix } from '../support/databases';
import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * Two installations (each its own database and DATA_DIR) on one Redis, as a staging copy beside
 * production would be: neither takes the other's jobs.
 */
describe('installations sharing a Redis (e2e)', () => {
  const started: TestQuire[] = [];
  afterAll(async () => {
    for (const q of started.reverse()) await q.close();
  });

  /**
   * Ten change requests on one space, each adding a page, merged all at once: each answers a merge,
   * and the live revision read as soon as they all have holds every page. The answers are checked
   * first: a merge that outlasted QUIRE_COMMAND_TIMEOUT_MS answers 503 and goes on in the
   * background, which the live revision shows as a page missing, not as a stale read.
   */
  async function expectTenMerged(q: TestQuire): Promise<void> {
    const owner = await q.createUser('Merger');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Installation Org' } })).body;
    const { data: space } = await owner.api.orgs.createSpace(org.id, { title: 'Shared Redis' } as any);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: `page ${i}` });
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, {
        changes: [{ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `# Page ${i}\n\ntext ${i}\n` } }],
      });
      ids.push(cr.id);
    }
    const results = await Promise.all(ids.map((id) => owner.api.spaces.mergeChangeRequest(space.id, id).then((r) => r.data.result, (err) => `error ${err.code}: ${err.message}`)));
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    expect(results).toEqual(Array(10).fill('merge'));
    expect((revision.pages as any[]).map((p) => p.title)).toEqual(expect.arrayContaining(Array.from({ length: 10 }, (_, i) => `Page ${i}`)));
  }

  it('with default settings, each installation has its own queues: ten merges on the first all merge', async () => {
    // Both installations leave QUIRE_QUEUE_PREFIX unset (the same base prefix, derived per installation).
    const base = uniquePrefix('inst');
    const first = await startTestQuire({ queuePrefix: base, queuePrefixConfigured: false });
    started.push(first);
    const second = await startTestQuire({ queuePrefix: base, queuePrefixConfigured: false });
    started.push(second);
    const a = first.started.runtime.config;
    const b = second.started.runtime.config;
    expect(a.installationId).toEqual(expect.any(String));
    expect(b.installationId).not.toBe(a.installationId);
    expect(a.queuePrefix).toBe(installationQueuePrefix(base, a.installationId!));
    expect(b.queuePrefix).toBe(installationQueuePrefix(base, b.installationId!));

    await expectTenMerged(first);
    // The jobs ran in the first installation's queues only, and carried its id.
    const merges = await first.started.runtime.jobs!.queue(QUEUES.changeRequestMerge).getJobs(['completed']);
    expect(merges.length).toBe(10);
    expect(new Set(merges.map((j) => j.data.installationId))).toEqual(new Set([a.installationId]));
    expect(await second.started.runtime.jobs!.queue(QUEUES.changeRequestMerge).getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 0 });
  });

  it('keeps its id across restarts of its processes, so replicas share their queues', async () => {
    const q = started[0];
    const again = await (await import('@quire/infrastructure/runtime')).Runtime.start({ ...q.config }, { runProjections: false, redis: false });
    try {
      expect(again.config.installationId).toBe(q.started.runtime.config.installationId);
      expect(again.config.queuePrefix).toBe(q.started.runtime.config.queuePrefix);
    } finally {
      await again.stop();
    }
  });

  it('with one prefix set for both, each installation still has its own queues: the other\'s idle workers never take a job, ten merges on the first all merge', async () => {
    const shared = uniquePrefix('inst-shared');
    const first = await startTestQuire({ queuePrefix: shared });
    started.push(first);
    const second = await startTestQuire({ queuePrefix: shared });
    started.push(second);
    const a = first.started.runtime.config;
    const b = second.started.runtime.config;
    expect(a.queuePrefix).toBe(installationQueuePrefix(shared, a.installationId!));
    expect(b.queuePrefix).toBe(installationQueuePrefix(shared, b.installationId!));
    // The prefix is recorded as the first's; the second started with a warning about it.
    expect(await first.started.runtime.redis!.get(queueOwnerKey(shared))).toBe(a.installationId);

    await expectTenMerged(first);
    // Each merge job was taken once, by the first's worker: never by the second's (idle, ready)
    // and put back, which starved a job past the command bound when the queues were shared.
    const merges = await first.started.runtime.jobs!.queue(QUEUES.changeRequestMerge).getJobs(['completed', 'failed', 'delayed', 'wait', 'active']);
    expect(merges.map((j) => [j.finishedOn !== undefined && !j.failedReason, j.attemptsStarted])).toEqual(Array(10).fill([true, 1]));
    expect(await second.started.runtime.jobs!.queue(QUEUES.changeRequestMerge).getJobCounts('completed', 'failed', 'delayed', 'active', 'wait')).toEqual({ completed: 0, failed: 0, delayed: 0, active: 0, wait: 0 });
  });
});
