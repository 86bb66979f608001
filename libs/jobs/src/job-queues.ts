import { Job, JobsOptions, Queue } from 'bullmq';
import Redis from 'ioredis';
import { QueueName, QUEUES } from './queues';

/** Retries with backoff for transient failures; bounded history so Redis does not grow forever. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

/**
 * Producer side of the BullMQ queues. Enqueues are idempotent: the job id is derived from the
 * event that requested the work, so re-enqueueing from the events never runs it twice.
 */
export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();

  private lastErrorLogged = 0;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    /** Told about connection errors (at most every 30 s); without a listener BullMQ prints them to stderr. */
    private readonly onError: (err: Error, queue: QueueName) => void = () => undefined,
    /** Written into every job's data, so workers of another installation sharing the prefix leave it alone. */
    private readonly installationId?: string,
    /** The first retry's delay (QUIRE_JOB_RETRY_DELAY_MS); each later one doubles it. */
    private readonly retryDelayMs = 1000,
  ) {}

  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix, defaultJobOptions: { ...DEFAULT_JOB_OPTIONS, backoff: { type: 'exponential', delay: this.retryDelayMs } } });
      q.on('error', (err) => {
        if (Date.now() - this.lastErrorLogged < 30_000) return;
        this.lastErrorLogged = Date.now();
        this.onError(err, name);
      });
      this.queues.set(name, q);
    }
    return q;
  }

  all(): Queue[] {
    return Object.values(QUEUES).map((n) => this.queue(n));
  }

  async enqueue<T extends object>(name: QueueName, jobId: string, data: T, opts: JobsOptions = {}): Promise<Job<T>> {
    const scoped = this.installationId ? { ...data, installationId: this.installationId } : data;
    return this.queue(name).add(name, scoped, { ...opts, jobId }) as Promise<Job<T>>;
  }

  /**
   * Enqueues, but answers within `ms` whatever Redis does: 'deferred' when Redis did not take
   * the job in time (it went down after the request was accepted). Only for work whose request is
   * already recorded as an event, so recovery re-enqueues it when Redis is back; the pending add
   * still lands then, and the job id makes the two one job.
   */
  async enqueueWithin<T extends object>(ms: number, name: QueueName, jobId: string, data: T): Promise<'enqueued' | 'deferred'> {
    const added = this.enqueue(name, jobId, data).then(() => 'enqueued' as const);
    added.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'deferred'>((r) => (timer = setTimeout(() => r('deferred'), ms)));
    try {
      return await Promise.race([added, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Waits for a job to finish (bounded): resolves with its return value, rejects with its
   * failure reason. Polls the job's state, which cannot miss a job that finished before the
   * wait began (a QueueEvents listener can).
   */
  async waitFor<R>(name: QueueName, job: Job, timeoutMs: number): Promise<R> {
    const deadline = Date.now() + timeoutMs;
    let interval = 10;
    for (;;) {
      const current = await Job.fromId(this.queue(name), job.id!);
      if (!current) throw new JobVanishedError(job.id!);
      if (current.finishedOn) {
        if (current.failedReason && (await current.isFailed())) throw new JobFailedError(job.id!, current.failedReason);
        if (await current.isCompleted()) return current.returnvalue as R;
      }
      if (Date.now() >= deadline) throw new JobWaitTimeoutError(job.id!, timeoutMs);
      await new Promise((r) => setTimeout(r, interval));
      interval = Math.min(interval * 2, 100);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

/** A job id from the id of the event that asked for the work (BullMQ ids may not contain ':'). */
export function jobIdFor(eventId: string): string {
  return `ev-${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

export class JobFailedError extends Error {
  readonly code = 'job_failed';
  constructor(readonly jobId: string, readonly reason: string) {
    super(reason);
  }
}

export class JobWaitTimeoutError extends Error {
  readonly code = 'job_wait_timeout';
  constructor(readonly jobId: string, readonly timeoutMs: number) {
    super(`Job ${jobId} did not finish within ${timeoutMs} ms; it goes on in the background`);
  }
}

export class JobVanishedError extends Error {
  readonly code = 'job_vanished';
  constructor(readonly jobId: string) {
    super(`Job ${jobId} is no longer in the queue`);
  }
}
