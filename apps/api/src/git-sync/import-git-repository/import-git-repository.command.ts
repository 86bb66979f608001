import { Command } from '@nestjs/cqrs';
import { GitImportRequest } from '@quire/domain';

export class ImportGitRepositoryCommand extends Command<{ importId: string }> {
  constructor(
    readonly spaceId: string,
    /** As recorded: credentials already stripped from the URL. */
    readonly request: Omit<GitImportRequest, 'importId'>,
    /** Basic-auth credentials from the URL; they travel only with the job. */
    readonly credentials: { username: string; password: string } | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
