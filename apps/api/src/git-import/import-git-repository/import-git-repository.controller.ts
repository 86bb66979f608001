import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { gitRunBody, recordedGitRunRequest } from '../../git-runs/git-run-request';
import { checkCanTriggerGitSync } from '../../git-runs/git-sync-access';
import { ImportGitRepositoryCommand } from './import-git-repository.command';
import { QueueBacked } from '../../operators/queue-availability';

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
  @QueueBacked()
  @HttpCode(204)
  async import(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await checkCanTriggerGitSync(this.access, caller, spaceId);
    const { request, credentials } = recordedGitRunRequest(parseInput(gitRunBody, body));
    await this.commands.execute(new ImportGitRepositoryCommand(spaceId, request, credentials, caller.user.id));
  }
}
