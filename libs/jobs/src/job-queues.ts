import { Job, JobsOptions, Queue, QueueEvents } from 'bullmq';
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
  private readonly events = new Map<QueueName, QueueEvents>();
  private readonly ownConnections: Redis[] = [];

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      this.queues.set(name, q);
    }
    return q;
  }

  all(): Queue[] {
    return Object.values(QUEUES).map((n) => this.queue(n));
  }

  async enqueue<T extends object>(name: QueueName, jobId: string, data: T, opts: JobsOptions = {}): Promise<Job<T>> {
    return this.queue(name).add(name, data, { ...opts, jobId });
  }

  /** Waits for a job to finish (bounded); resolves with its return value, rejects with its failure. */
  async waitFor<R>(name: QueueName, job: Job, timeoutMs: number): Promise<R> {
    let qe = this.events.get(name);
    if (!qe) {
      const connection = this.connection.duplicate();
      this.ownConnections.push(connection);
      qe = new QueueEvents(name, { connection, prefix: this.prefix });
      this.events.set(name, qe);
      await qe.waitUntilReady();
    }
    return job.waitUntilFinished(qe, timeoutMs) as Promise<R>;
  }

  async close(): Promise<void> {
    await Promise.all([...this.events.values()].map((e) => e.close()));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await Promise.all(this.ownConnections.map((c) => c.quit().catch(() => undefined)));
  }
}

/** A job id from the id of the event that asked for the work (BullMQ ids may not contain ':'). */
export function jobIdFor(eventId: string): string {
  return `ev-${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
