import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { DomainError } from '@quire/domain';
import { REDIS } from '@quire/infrastructure/tokens';
import { gitRunSecretKey, GitRunQueue, GitRunSecret } from '@quire/jobs/git-run-secret';
import { JobQueues, jobIdFor } from '@quire/jobs/job-queues';
import { CommandExecutor, Executed } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';

/** How long a request waits on Redis (for the credentials, then for the job); a run recorded
 * still happens if Redis is slower. */
const REDIS_WITHIN_MS = 2_000;
/** Credentials wait this long for their job at most. */
const SECRET_TTL_S = 7 * 24 * 3600;

/**
 * Starts a git run (an import or an export), the same way for both: the credentials go to a
 * short-lived Redis key the job reads and deletes (never into the job's data or the events),
 * then the request is recorded, then the job is enqueued under an id derived from the run's
 * while the read models catch up with the request (the answer waits for both).
 */
@Injectable()
export class GitRunStarter {
  constructor(
    private readonly jobs: JobQueues,
    private readonly executor: CommandExecutor,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `record` appends the request without waiting for the read models (CommandExecutor.append). */
  async start<Job extends { spaceId: string }>(run: {
    queue: GitRunQueue;
    runId: string;
    credentials: GitRunSecret | undefined;
    record: () => Promise<Executed<unknown, { type: string }, unknown>>;
    job: Job;
  }): Promise<void> {
    const { queue, runId, credentials, job } = run;
    if (credentials) {
      // Before anything is recorded: if Redis cannot keep the credentials, nothing happens.
      const kept = this.redis.set(gitRunSecretKey(this.config.queuePrefix, queue, runId), JSON.stringify(credentials), 'EX', SECRET_TTL_S);
      kept.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), REDIS_WITHIN_MS)));
      const outcome = await Promise.race([kept, late]).finally(() => clearTimeout(timer));
      if (outcome === 'late') throw new DomainError('unavailable', 'The job queue (Redis) is unavailable, so this operation cannot be started now; nothing was recorded. Retry shortly.');
    }
    const recorded = await run.record();
    // Recorded: from here the run happens. If Redis went down meanwhile, job recovery
    // enqueues it when Redis is back (JobRecovery, apps/worker/src/job-recovery/job-recovery.ts).
    // The job reads the request from the event stream, not from the read models: it need not
    // wait for them, only the answer does (read-your-writes for the runs list).
    const [enqueued, caughtUp] = await Promise.allSettled([
      this.jobs.enqueueWithin(REDIS_WITHIN_MS, queue, jobIdFor(runId), job),
      recorded.position ? this.executor.waitFor(recorded.position, recorded.events.map((e) => e.type)) : Promise.resolve(),
    ]);
    if (enqueued.status === 'fulfilled' && enqueued.value === 'deferred') {
      this.logger.warn({ spaceId: job.spaceId, queue, runId }, 'git run recorded but Redis did not take its job in time; it will be enqueued when Redis is back');
    }
    if (enqueued.status === 'rejected') throw enqueued.reason;
    if (caughtUp.status === 'rejected') throw caughtUp.reason;
  }
}
