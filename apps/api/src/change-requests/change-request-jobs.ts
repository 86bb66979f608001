import { Inject, Injectable } from '@nestjs/common';
import { Job } from 'bullmq';
import { DomainError, PendingRequest, PendingRequestError } from '@quire/domain';
import { jobIdFor, JobFailedError, JobQueues, JobWaitTimeoutError } from '@quire/jobs/job-queues';
import { QueueName, QUEUES } from '@quire/jobs/queues';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestJob, ChangeRequestJobResult } from '@quire/jobs/change-request.job';

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

  /**
   * Runs a decision that a pending merge or update may hold (PendingRequestError). The hold
   * lasts as long as the request's job: only when that job is verifiably gone is the decision
   * made again with the request abandoned.
   */
  async unlessHeld<T>(attempt: (abandoned: string[]) => Promise<T>): Promise<T> {
    const abandoned: string[] = [];
    for (;;) {
      try {
        return await attempt([...abandoned]);
      } catch (err) {
        if (!(err instanceof PendingRequestError) || abandoned.includes(err.request.requestId) || abandoned.length >= 2) throw err;
        if (!(await this.isGone(err.kind, err.request))) throw err;
        abandoned.push(err.request.requestId);
      }
    }
  }

  /**
   * True when the job of a pending request will never end it: failed for good, finished
   * without recording its end, or absent from the queue although it was asked for more than
   * ABANDONED_AFTER_MS ago (the request is recorded before its job is enqueued). When Redis
   * cannot be asked, nothing is verified: false.
   */
  async isGone(kind: 'merge' | 'update', request: PendingRequest, now = Date.now()): Promise<boolean> {
    const queue = this.queues.queue(kind === 'merge' ? QUEUES.changeRequestMerge : QUEUES.changeRequestUpdate);
    try {
      const job = await Job.fromId(queue, jobIdFor(request.requestId));
      if (!job) return now - Date.parse(request.at) > ABANDONED_AFTER_MS;
      const state = await job.getState();
      return state === 'failed' || state === 'completed';
    } catch {
      return false;
    }
  }
}

/** How long a recorded request may be without its job before the job counts as lost. */
export const ABANDONED_AFTER_MS = 60_000;
