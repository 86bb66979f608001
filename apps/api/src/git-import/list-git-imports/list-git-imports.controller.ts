import { Controller, Get, Param, Query } from '@nestjs/common';
import { CommandExecutor } from '@quire/projections/command-executor';
import { GitImportQueries } from '@quire/read-models/git-imports/git-imports.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { AccessService } from '../../permissions/access.service';
import { listSpaceGitRuns } from '../../git-runs/list-space-git-runs';

@Controller('v1/spaces/:spaceId/git')
export class ListGitImportsController {
  constructor(
    private readonly access: AccessService,
    private readonly executor: CommandExecutor,
    private readonly imports: GitImportQueries,
  ) {}

  /** Quire's own: the space's import runs, newest first. */
  @Get('imports')
  list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    return listSpaceGitRuns({ access: this.access, executor: this.executor }, this.imports, caller, spaceId, query);
  }
}
