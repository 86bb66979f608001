import { Controller, Get, Param, Query } from '@nestjs/common';
import { GitExportQueries } from '@quire/read-models/git-exports/git-exports.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { listGitRunsQuery } from '../../git-runs/list-git-runs.query';

@Controller('v1/spaces/:spaceId/git')
export class ListGitExportsController {
  constructor(
    private readonly access: AccessService,
    private readonly exports: GitExportQueries,
  ) {}

  /** Quire's own, beside `.../imports`: the space's export runs, newest first. */
  @Get('exports')
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    return this.exports.list(spaceId, parseInput(listGitRunsQuery, query, 'query'));
  }
}
