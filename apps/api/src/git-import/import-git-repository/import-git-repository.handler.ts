import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import Redis from 'ioredis';
import { decideGitImport, spaceGitImportsAggregate, spaceStream } from '@quire/domain';
import { JobQueues, jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { REDIS } from '@quire/infrastructure/tokens';
import { DomainError } from '@quire/domain';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { gitImportSecretKey, GitImportJob } from '@quire/jobs/git-import.job';
import { ImportGitRepositoryCommand } from './import-git-repository.command';

/** How long the request waits on Redis once the import is recorded (it still runs if Redis is slower). */
const ENQUEUE_WITHIN_MS = 2_000;

/**
 * Records GitImportRequested (no credentials) and enqueues the import; the worker does the rest.
 * Credentials go to a short-lived Redis key the job reads and deletes, never into the job's data.
 */
@CommandHandler(ImportGitRepositoryCommand)
export class ImportGitRepositoryHandler implements ICommandHandler<ImportGitRepositoryCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly jobs: JobQueues,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ spaceId, request, credentials, actorId }: ImportGitRepositoryCommand) {
    const importId = newId();
    if (credentials) {
      // Before anything is recorded: if Redis cannot keep the credentials, nothing happens.
      const kept = this.redis.set(gitImportSecretKey(this.config.queuePrefix, importId), JSON.stringify(credentials), 'EX', 7 * 24 * 3600);
      kept.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ENQUEUE_WITHIN_MS)));
      const outcome = await Promise.race([kept, late]).finally(() => clearTimeout(timer));
      if (outcome === 'late') throw new DomainError('unavailable', 'The job queue (Redis) is unavailable, so this operation cannot be started now; nothing was recorded. Retry shortly.');
    }
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceGitImportsAggregate,
      decide: (state, ctx) => decideGitImport({ type: 'RequestGitImport', spaceId, request: { ...request, importId }, requestedBy: actorId }, state, ctx),
      metadata: { actor: actorId },
    });
    const job: GitImportJob = { spaceId, importId };
    // Recorded: from here the import happens. If Redis went down meanwhile, job recovery
    // enqueues it when Redis is back (JobRecovery, apps/worker/src/job-recovery/job-recovery.ts).
    if ((await this.jobs.enqueueWithin(ENQUEUE_WITHIN_MS, QUEUES.gitImport, jobIdFor(importId), job)) === 'deferred') {
      this.logger.warn({ spaceId, importId }, 'git import recorded but Redis did not take its job in time; it will be enqueued when Redis is back');
    }
    return { importId };
  }
}
