import { Job } from 'bullmq';
import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { jobsCommand } from '../../apps/cli/src/jobs/jobs.command';
import { JobRecovery } from '../../apps/worker/src/job-recovery/job-recovery';
import { startTestQuire, TestQuire } from '../support/quire-app';

const sink = () => {
  const chunks: string[] = [];
  return { out: { write: (s: string) => (chunks.push(s), true) }, text: () => chunks.join('') };
};

/**
 * A merge whose job Redis lost (its ChangeRequestMergeRequested event recorded, no completion)
 * is run again from its event: by `jobs retry` and by the automatic recovery. No worker runs
 * here, so the job stays where the test can see it; the recovery (part of the worker) is built
 * from the running Quire's own pieces and run by hand, as a worker's start-up would run it.
 */
describe('lost change-request jobs are re-enqueued from their events (e2e)', () => {
  let q: TestQuire;

  beforeAll(async () => {
    q = await startTestQuire({ commandTimeoutMs: 1500 }, { worker: false });
  });
  afterAll(async () => {
    await q?.close();
  });

  it('`jobs retry <change request id>` and JobRecovery enqueue jobIdFor(requestId) with the payload the API would', async () => {
    const owner = await q.createUser('Recovery Owner');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Recovery Org' } })).body.id;
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Lost merge' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'lost merge' });
    // No worker: the merge is recorded, its job waits, the API answers 503 "still running".
    expect((await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: owner.token })).status).toBe(503);
    const queue = q.started.runtime.jobs!.queue(QUEUES.changeRequestMerge);
    const original = (await queue.getJobs(['waiting'])).find((j) => j?.data?.changeRequestId === cr.id)!;
    expect(original.id).toBe(jobIdFor(original.data.requestId));
    const payload = { ...original.data };
    // Jobs name their installation, so workers of another installation sharing the queues leave them alone.
    const installationId = q.started.runtime.config.installationId;
    expect(installationId).toEqual(expect.any(String));
    expect(payload).toEqual({ spaceId: space.id, changeRequestId: cr.id, requestId: expect.any(String), actorId: owner.id, installationId });

    // Redis loses it; the operator retries by change request id.
    await original.remove();
    const out = sink();
    await jobsCommand(q.started.runtime, ['retry', cr.id], out.out);
    expect(out.text()).toContain(`merge ${payload.requestId} is pending: its job was lost: enqueued again (job ${original.id})`);
    expect((await Job.fromId(queue, original.id!))?.data).toEqual(payload);
    // Asked again while the job is there: nothing doubles.
    const again = sink();
    await jobsCommand(q.started.runtime, ['retry', original.id!], again.out);
    expect(again.text()).toContain('its job is pending: it will run without help');

    // Lost again; the automatic recovery (as when Redis comes back) gives it back too.
    await (await Job.fromId(queue, original.id!))!.remove();
    const { db, store, logger, jobs, redis } = q.started.runtime;
    await new JobRecovery(db, store, logger, jobs, redis).recover('test');
    expect((await Job.fromId(queue, original.id!))?.data).toEqual(payload);
  });
});
