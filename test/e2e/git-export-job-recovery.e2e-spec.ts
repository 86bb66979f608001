import { Job } from 'bullmq';
import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { JobRecovery } from '../../apps/worker/src/job-recovery/job-recovery';
import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * A git export whose job Redis lost (its GitExportRequested event recorded, no outcome) gets
 * its job again from the events when the worker's recovery runs. No worker runs here, so the
 * job stays where the test can see it; the recovery is built from the running Quire's pieces.
 */
describe('lost git export jobs are re-enqueued from their events (e2e)', () => {
  let q: TestQuire;

  beforeAll(async () => {
    q = await startTestQuire({}, { worker: false });
  });
  afterAll(async () => {
    await q?.close();
  });

  it('JobRecovery enqueues jobIdFor(exportId) with the payload the API would, once', async () => {
    const owner = await q.createUser('Export Recovery Owner');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Export Recovery Org' } })).body.id;
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Lost export' } as any);
    const requested = await q.http('POST', `/v1/spaces/${space.id}/git/export`, {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/nowhere.git', ref: 'refs/heads/main', commitMessage: 'Lost' },
    });
    expect(requested.status).toBe(204);
    const queue = q.started.runtime.jobs!.queue(QUEUES.gitExport);
    const original = (await queue.getJobs(['waiting'])).find((j) => j?.data?.spaceId === space.id)!;
    expect(original.id).toBe(jobIdFor(original.data.exportId));
    const payload = { ...original.data };
    expect(payload).toEqual({ spaceId: space.id, exportId: expect.any(String), installationId: q.started.runtime.config.installationId });

    const { db, store, logger, jobs, redis } = q.started.runtime;
    const recovery = new JobRecovery(db, store, logger, jobs, redis);
    // While its job is there, recovery leaves it alone.
    await recovery.recover('test');
    expect(await queue.getJobs(['waiting'])).toHaveLength(1);

    // Redis loses it; recovery gives it back, with the same id and payload.
    await original.remove();
    expect(await Job.fromId(queue, original.id!)).toBeUndefined();
    await recovery.recover('test');
    expect((await Job.fromId(queue, original.id!))?.data).toEqual(payload);
    expect(await queue.getJobs(['waiting'])).toHaveLength(1);
  });
});
