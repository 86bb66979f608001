import { Command } from '@nestjs/cqrs';
import { GitImportRequest } from '@quire/domain';
import type { GitRunSecret } from '@quire/jobs/git-run-secret';

export class ImportGitRepositoryCommand extends Command<{ importId: string }> {
  constructor(
    readonly spaceId: string,
    /** As recorded: credentials already stripped from the URL. */
    readonly request: Omit<GitImportRequest, 'importId'>,
    /** Basic-auth credentials and token query parameters from the URL; they travel only
     * with the job. */
    readonly credentials: GitRunSecret | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
