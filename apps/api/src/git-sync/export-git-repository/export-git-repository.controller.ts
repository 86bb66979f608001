import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError, spacePermissions } from '@quire/domain';
import { parseRemoteUrl, redactUrl } from '@quire/content/import';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { ExportGitRepositoryCommand } from './export-git-repository.command';
import { exportGitRepositoryBody } from './export-git-repository.dto';

@Controller('v1/spaces/:spaceId/git')
export class ExportGitRepositoryController {
  constructor(
    private readonly access: AccessService,
    private readonly commands: CommandBus,
  ) {}

  /** GitBook's exportToGitRepository: validated, recorded, queued; 204 at once. */
  @Post('export')
  @HttpCode(204)
  async export(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { space, role } = await this.access.spaceAccess(caller, spaceId, 'read');
    if (!spacePermissions(role, space.edit_mode).triggerGitSync) throw new DomainError('forbidden', 'You need the edit role (and an unlocked space) to trigger a git sync');
    const input = parseInput(exportGitRepositoryBody, body);
    // Credentials leave every URL before anything is recorded; those of the push URL travel
    // with the job, the others are dropped.
    const { url, auth, secretQuery } = parseRemoteUrl(input.url);
    const credentials = auth || secretQuery ? { ...(auth ? { auth } : {}), ...(secretQuery ? { query: secretQuery } : {}) } : undefined;
    const gitInfo = input.gitInfo && { ...input.gitInfo, ...(input.gitInfo.url !== undefined ? { url: redactUrl(input.gitInfo.url) } : {}) };
    await this.commands.execute(
      new ExportGitRepositoryCommand(
        spaceId,
        {
          url,
          ref: input.ref,
          commitMessage: input.commitMessage,
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
