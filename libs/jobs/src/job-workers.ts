import { Job, UnrecoverableError, Worker } from 'bullmq';
import Redis from 'ioredis';
import type { Logger } from '@quire/platform/logging/logger';
import { QueueName } from './queues';
import { InstallationScoped } from './installation-scope';

export { UnrecoverableError };

export type Processor<T = any, R = any> = (job: Job<T>, token?: string) => Promise<R>;

/**
 * Consumer side: one BullMQ Worker per queue. `close()` stops taking jobs and waits for the
 * active ones to finish; a job cut off by a crash is returned to the queue by BullMQ's
 * stalled-job check and runs again (processors are idempotent by job id).
 */
export class JobWorkers {
  private readonly workers: Worker[] = [];
  private readonly ownConnections: Redis[] = [];

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    /** This process's installation: a job that names another one is refused (see guard). */
    private readonly installationId?: string,
  ) {}

  register<T, R>(queue: QueueName, processor: Processor<T, R>, opts: { concurrency?: number } = {}): Worker<T, R> {
    const connection = this.connection.duplicate({ maxRetriesPerRequest: null });
    this.ownConnections.push(connection);
    const worker = new Worker<T, R>(queue, this.guard(queue, processor), {
      connection,
      prefix: this.prefix,
      concurrency: opts.concurrency ?? 1,
      lockDuration: 60_000,
    });
    worker.on('failed', (job, err) =>
      this.logger.warn({ queue, jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'job failed'),
    );
    worker.on('completed', (job) => this.logger.info({ queue, jobId: job.id, ms: (job.finishedOn ?? 0) - (job.processedOn ?? 0) }, 'job completed'));
    worker.on('error', (err) => this.logger.error({ queue, err: err.message }, 'worker error'));
    this.workers.push(worker as Worker);
    return worker;
  }

  /**
   * Every processor runs behind this check. Queues are scoped to the installation (see
   * installationQueuePrefix), so a job naming another installation is in the wrong queues: no
   * worker of its own would ever see it here, and acting on it would run it against the wrong
   * database. It fails, once, with a reason that says so (no retry, nothing put back for another
   * worker to take and return). Jobs without an installation id were enqueued before jobs carried one.
   */
  private guard<T, R>(queue: QueueName, processor: Processor<T, R>): Processor<T, R> {
    const own = this.installationId;
    if (!own) return processor;
    return async (job, token) => {
      const owner = (job.data as InstallationScoped | undefined)?.installationId;
      if (owner === undefined || owner === own) return processor(job, token);
      this.logger.error({ queue, jobId: job.id, jobInstallation: owner, installation: own }, 'job of another installation refused: it was enqueued into this installation\'s queues');
      throw new UnrecoverableError(`job of installation ${owner} in the queues of installation ${own}`);
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(this.ownConnections.map((c) => c.quit().catch(() => undefined)));
  }
}
