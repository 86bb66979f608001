import { Command } from '@nestjs/cqrs';
import { GitExportRequest } from '@quire/domain';
import type { GitRunSecret } from '@quire/jobs/git-run-secret';

export class ExportGitRepositoryCommand extends Command<{ exportId: string }> {
  constructor(
    readonly spaceId: string,
    /** As recorded: credentials already stripped from the URL. */
    readonly request: Omit<GitExportRequest, 'exportId'>,
    /** Basic-auth credentials and token query parameters from the URL; they travel only
     * with the job. */
    readonly credentials: GitRunSecret | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
