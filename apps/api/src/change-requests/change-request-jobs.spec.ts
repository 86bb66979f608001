import { JobFailedError, JobWaitTimeoutError } from '@quire/jobs/job-queues';
import { ChangeRequestJobs } from './change-request-jobs';

describe('ChangeRequestJobs', () => {
  const job = { spaceId: 's', changeRequestId: 'c', requestId: 'r-1', actorId: 'u' };
  const queues = (waitFor: () => Promise<unknown>) =>
    ({ enqueue: jest.fn(async () => ({ id: 'ev-r-1', isFailed: async () => false })), waitFor: jest.fn(waitFor) }) as any;
  const config = { commandTimeoutMs: 50 } as any;

  it('answers the job result, with the job id derived from the request event', async () => {
    const q = queues(async () => ({ ok: true, revision: 'r9', result: 'merge' }));
    await expect(new ChangeRequestJobs(q, config).run('change-request-merge', job, 'merge')).resolves.toMatchObject({ revision: 'r9', result: 'merge' });
    expect(q.enqueue).toHaveBeenCalledWith('change-request-merge', 'ev-r-1', job);
    expect(q.waitFor).toHaveBeenCalledWith('change-request-merge', expect.anything(), 50);
  });

  it('maps a refusal to its domain error, a wait past the bound and a spent job to 503', async () => {
    await expect(new ChangeRequestJobs(queues(async () => ({ ok: false, code: 'unprocessable', message: 'rules' })), config).run('change-request-merge', job, 'merge')).rejects.toMatchObject({ code: 'unprocessable', message: 'rules' });
    await expect(new ChangeRequestJobs(queues(async () => Promise.reject(new JobWaitTimeoutError('j', 50))), config).run('change-request-merge', job, 'merge')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/still running/),
    });
    await expect(new ChangeRequestJobs(queues(async () => Promise.reject(new JobFailedError('j', 'boom'))), config).run('change-request-update', job, 'update')).rejects.toMatchObject({ code: 'unavailable' });
  });
});
