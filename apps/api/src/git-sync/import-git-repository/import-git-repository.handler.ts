import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import Redis from 'ioredis';
import { gitSyncAggregate, spaceStream } from '@quire/domain';
import { JobQueues, jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { REDIS } from '@quire/infrastructure/tokens';
import { gitImportSecretKey, GitImportJob } from '@quire/jobs/git-import.job';
import { ImportGitRepositoryCommand } from './import-git-repository.command';

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
  ) {}

  async execute({ spaceId, request, credentials, actorId }: ImportGitRepositoryCommand) {
    const importId = newId();
    if (credentials) {
      await this.redis.set(gitImportSecretKey(this.config.queuePrefix, importId), JSON.stringify(credentials), 'EX', 7 * 24 * 3600);
    }
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: gitSyncAggregate,
      decide: (_state, ctx) => [
        { type: 'GitImportRequested', data: { spaceId, request: { ...request, importId }, requestedBy: actorId, at: ctx.now.toISOString() } },
      ],
      metadata: { actor: actorId },
    });
    const job: GitImportJob = { spaceId, importId };
    await this.jobs.enqueue(QUEUES.gitImport, jobIdFor(importId), job);
    return { importId };
  }
}
