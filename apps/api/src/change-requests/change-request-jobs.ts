import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@quire/domain';
import { jobIdFor, JobFailedError, JobQueues, JobWaitTimeoutError } from '@quire/jobs/job-queues';
import { QueueName } from '@quire/jobs/queues';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestJob, ChangeRequestJobResult } from '../../../worker/src/change-requests/change-request-streams';

/**
 * Hands a merge or update to the worker and waits for it, bounded by QUIRE_COMMAND_TIMEOUT_MS.
 * The job id comes from the request event, so asking again while it runs waits for the same
 * job. Past the bound the answer is 503 while the job goes on.
 */
@Injectable()
export class ChangeRequestJobs {
  constructor(
    private readonly queues: JobQueues,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async run(queue: QueueName, job: ChangeRequestJob, what: 'merge' | 'update'): Promise<Extract<ChangeRequestJobResult, { ok: true }>> {
    const enqueued = await this.queues.enqueue(queue, jobIdFor(job.requestId), job);
    // Asking again after the job gave up (its retries spent) runs it again.
    if (await enqueued.isFailed()) await enqueued.retry();
    let result: ChangeRequestJobResult;
    try {
      result = await this.queues.waitFor<ChangeRequestJobResult>(queue, enqueued, this.config.commandTimeoutMs);
    } catch (err) {
      if (err instanceof JobWaitTimeoutError) {
        throw new DomainError('unavailable', `The ${what} is still running and goes on in the background; read the change request again shortly to see its outcome`);
      }
      if (err instanceof JobFailedError) throw new DomainError('unavailable', `The ${what} could not be completed; retry shortly`);
      throw err;
    }
    if (!result.ok) throw new DomainError(result.code, result.message);
    return result;
  }
}
