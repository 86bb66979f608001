import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import Redis from 'ioredis';
import { decideGitExport, DomainError, gitExportAggregate, spaceStream } from '@quire/domain';
import { gitExportSecretKey, GitExportJob } from '@quire/jobs/git-export.job';
import { JobQueues, jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { REDIS } from '@quire/infrastructure/tokens';
import { ExportGitRepositoryCommand } from './export-git-repository.command';

/** How long the request waits on Redis once the export is recorded (it still runs if Redis is slower). */
const ENQUEUE_WITHIN_MS = 2_000;
/** Credentials wait this long for their job at most. */
const SECRET_TTL_S = 7 * 24 * 3600;

/**
 * Records GitExportRequested (no credentials) and enqueues the export; the worker pushes.
 * Credentials go to a short-lived Redis key the job reads and deletes, never into the job's
 * data, as for imports.
 */
@CommandHandler(ExportGitRepositoryCommand)
export class ExportGitRepositoryHandler implements ICommandHandler<ExportGitRepositoryCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly jobs: JobQueues,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ spaceId, request, credentials, actorId }: ExportGitRepositoryCommand) {
    const exportId = newId();
    if (credentials) {
      // Before anything is recorded: if Redis cannot keep the credentials, nothing happens.
      const kept = this.redis.set(gitExportSecretKey(this.config.queuePrefix, exportId), JSON.stringify(credentials), 'EX', SECRET_TTL_S);
      kept.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ENQUEUE_WITHIN_MS)));
      const outcome = await Promise.race([kept, late]).finally(() => clearTimeout(timer));
      if (outcome === 'late') throw new DomainError('unavailable', 'The job queue (Redis) is unavailable, so this operation cannot be started now; nothing was recorded. Retry shortly.');
    }
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: gitExportAggregate,
      decide: (state, ctx) => decideGitExport({ type: 'RequestGitExport', spaceId, request: { ...request, exportId }, requestedBy: actorId }, state, ctx),
      metadata: { actor: actorId },
    });
    const job: GitExportJob = { spaceId, exportId };
    if ((await this.jobs.enqueueWithin(ENQUEUE_WITHIN_MS, QUEUES.gitExport, jobIdFor(exportId), job)) === 'deferred') {
      this.logger.warn({ spaceId, exportId }, 'git export recorded but Redis did not take its job in time; trigger it again once Redis is back');
    }
    return { exportId };
  }
}
