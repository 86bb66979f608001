import { Controller, Get, Param, Query } from '@nestjs/common';
import { GitExportQueries } from '@quire/read-models/git-exports/git-exports.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { listGitRunsQuery } from '../../git-runs/list-git-runs.query';
import { waitForRunsEffects } from '../../git-runs/runs-effects';
import { CommandExecutor } from '@quire/projections/command-executor';

@Controller('v1/spaces/:spaceId/git')
export class ListGitExportsController {
  constructor(
    private readonly access: AccessService,
    private readonly executor: CommandExecutor,
    private readonly exports: GitExportQueries,
  ) {}

  /** Quire's own, beside `.../imports`: the space's export runs, newest first. */
  @Get('exports')
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    const runs = await this.exports.list(spaceId, parseInput(listGitRunsQuery, query, 'query'));
    await waitForRunsEffects(this.executor, await this.exports.appliedThrough());
    return runs;
  }
}
