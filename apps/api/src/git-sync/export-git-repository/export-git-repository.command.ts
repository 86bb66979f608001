import { Command } from '@nestjs/cqrs';
import { GitExportRequest } from '@quire/domain';
import type { GitImportSecret } from '@quire/jobs/git-import.job';

export class ExportGitRepositoryCommand extends Command<{ exportId: string }> {
  constructor(
    readonly spaceId: string,
    /** As recorded: credentials already stripped from the URL. */
    readonly request: Omit<GitExportRequest, 'exportId'>,
    /** Basic-auth credentials and token query parameters from the URL (the import's shape);
     * they travel only with the job. */
    readonly credentials: GitImportSecret | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
