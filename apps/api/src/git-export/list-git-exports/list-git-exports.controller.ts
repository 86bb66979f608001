import { Controller, Get, Param, Query } from '@nestjs/common';
import { CommandExecutor } from '@quire/projections/command-executor';
import { GitExportQueries } from '@quire/read-models/git-exports/git-exports.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { AccessService } from '../../permissions/access.service';
import { listSpaceGitRuns } from '../../git-runs/list-space-git-runs';

@Controller('v1/spaces/:spaceId/git')
export class ListGitExportsController {
  constructor(
    private readonly access: AccessService,
    private readonly executor: CommandExecutor,
    private readonly exports: GitExportQueries,
  ) {}

  /** Quire's own, beside `.../imports`: the space's export runs, newest first. */
  @Get('exports')
  list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    return listSpaceGitRuns({ access: this.access, executor: this.executor }, this.exports, caller, spaceId, query);
  }
}
