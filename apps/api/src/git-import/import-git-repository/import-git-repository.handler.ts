import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideGitImport, spaceGitImportsAggregate, spaceStream } from '@quire/domain';
import { GitImportJob } from '@quire/jobs/git-import.job';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { GitRunStarter } from '../../git-runs/git-run-starter';
import { ImportGitRepositoryCommand } from './import-git-repository.command';

/** Records GitImportRequested (no credentials) and enqueues the import; the worker does the rest. */
@CommandHandler(ImportGitRepositoryCommand)
export class ImportGitRepositoryHandler implements ICommandHandler<ImportGitRepositoryCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly runs: GitRunStarter,
  ) {}

  async execute({ spaceId, request, credentials, actorId }: ImportGitRepositoryCommand) {
    const importId = newId();
    const job: GitImportJob = { spaceId, importId };
    await this.runs.start({
      queue: QUEUES.gitImport,
      runId: importId,
      credentials,
      job,
      record: () =>
        this.executor.append({
          stream: spaceStream(spaceId),
          aggregate: spaceGitImportsAggregate,
          decide: (state, ctx) => decideGitImport({ type: 'RequestGitImport', spaceId, request: { ...request, importId }, requestedBy: actorId }, state, ctx),
          metadata: { actor: actorId },
        }),
    });
    return { importId };
  }
}
