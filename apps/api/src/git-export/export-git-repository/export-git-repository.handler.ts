import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideGitExport, gitExportAggregate, spaceStream } from '@quire/domain';
import { GitExportJob } from '@quire/jobs/git-export.job';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { GitRunStarter } from '../../git-runs/git-run-starter';
import { ExportGitRepositoryCommand } from './export-git-repository.command';

/** Records GitExportRequested (no credentials) and enqueues the export; the worker pushes. */
@CommandHandler(ExportGitRepositoryCommand)
export class ExportGitRepositoryHandler implements ICommandHandler<ExportGitRepositoryCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly runs: GitRunStarter,
  ) {}

  async execute({ spaceId, request, credentials, actorId }: ExportGitRepositoryCommand) {
    const exportId = newId();
    const job: GitExportJob = { spaceId, exportId };
    await this.runs.start({
      queue: QUEUES.gitExport,
      runId: exportId,
      credentials,
      job,
      record: () =>
        this.executor.append({
          stream: spaceStream(spaceId),
          aggregate: gitExportAggregate,
          decide: (state, ctx) => decideGitExport({ type: 'RequestGitExport', spaceId, request: { ...request, exportId }, requestedBy: actorId }, state, ctx),
          metadata: { actor: actorId },
        }),
    });
    return { exportId };
  }
}
