import { Controller, Get, Param, Query } from '@nestjs/common';
import { GitImportQueries } from '@quire/read-models/git-imports/git-imports.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { listGitRunsQuery } from '../../git-runs/list-git-runs.query';
import { waitForRunsEffects } from '../../git-runs/runs-effects';
import { CommandExecutor } from '@quire/projections/command-executor';

@Controller('v1/spaces/:spaceId/git')
export class ListGitImportsController {
  constructor(
    private readonly access: AccessService,
    private readonly executor: CommandExecutor,
    private readonly imports: GitImportQueries,
  ) {}

  /** Quire's own: the space's import runs, newest first. */
  @Get('imports')
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    const runs = await this.imports.list(spaceId, parseInput(listGitRunsQuery, query, 'query'));
    await waitForRunsEffects(this.executor, await this.imports.appliedThrough());
    return runs;
  }
}
