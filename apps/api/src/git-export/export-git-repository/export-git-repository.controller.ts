import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { recordedGitRunRequest } from '../../git-runs/git-run-request';
import { checkCanTriggerGitSync } from '../../git-runs/git-sync-access';
import { ExportGitRepositoryCommand } from './export-git-repository.command';
import { exportGitRepositoryBody } from './export-git-repository.dto';

/** GitBook's exportToGitRepository: the request is recorded (GitExportRequested) and the worker's
 * git-export job pushes (apps/worker/src/git-export/). */
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
    await checkCanTriggerGitSync(this.access, caller, spaceId);
    const input = parseInput(exportGitRepositoryBody, body);
    const { request, credentials } = recordedGitRunRequest(input);
    await this.commands.execute(new ExportGitRepositoryCommand(spaceId, { ...request, commitMessage: input.commitMessage }, credentials, caller.user.id));
  }
}
