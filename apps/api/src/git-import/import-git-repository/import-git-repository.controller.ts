import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError, spacePermissions } from '@quire/domain';
import { parseRemoteUrl, redactUrl } from '@quire/content/import';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { ImportGitRepositoryCommand } from './import-git-repository.command';
import { importBody } from './import-git-repository.dto';

/** GitBook's importGitRepository: the request is recorded (GitImportRequested) and the worker's
 * git-import job does the rest (apps/worker/src/git-import/). */
@Controller('v1/spaces/:spaceId/git')
export class ImportGitRepositoryController {
  constructor(
    private readonly access: AccessService,
    private readonly commands: CommandBus,
  ) {}

  /** GitBook's importGitRepository: validated, recorded, queued; 204 at once. */
  @Post('import')
  @HttpCode(204)
  async import(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { space, role } = await this.access.spaceAccess(caller, spaceId, 'read');
    if (!spacePermissions(role, space.edit_mode).triggerGitSync) throw new DomainError('forbidden', 'You need the edit role (and an unlocked space) to trigger a git sync');
    const input = parseInput(importBody, body);
    // Credentials (user:password@, ?private_token=...) leave every URL before anything is
    // recorded; those of the clone URL travel with the job for the fetch, the others are dropped.
    const { url, auth, secretQuery } = parseRemoteUrl(input.url);
    const credentials = auth || secretQuery ? { ...(auth ? { auth } : {}), ...(secretQuery ? { query: secretQuery } : {}) } : undefined;
    const gitInfo = input.gitInfo && { ...input.gitInfo, ...(input.gitInfo.url !== undefined ? { url: redactUrl(input.gitInfo.url) } : {}) };
    await this.commands.execute(
      new ImportGitRepositoryCommand(
        spaceId,
        {
          url,
          ref: input.ref,
          repoCacheID: input.repoCacheID,
          repoTreeURL: input.repoTreeURL && redactUrl(input.repoTreeURL),
          repoCommitURL: input.repoCommitURL && redactUrl(input.repoCommitURL),
          repoProjectDirectory: input.repoProjectDirectory?.replace(/^\.\/|\/+$/g, '') || undefined,
          timestamp: input.timestamp,
          force: input.force,
          standalone: input.standalone,
          gitInfo,
          hasCredentials: !!credentials,
        },
        credentials,
        caller.user.id,
      ),
    );
  }
}
