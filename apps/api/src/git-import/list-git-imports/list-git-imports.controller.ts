import { Controller, Get, Param, Query } from '@nestjs/common';
import { z } from 'zod';
import { GitImportQueries } from '@quire/read-models/git-imports/git-imports.queries';
import { paginationQuery } from '@quire/platform/http/pagination';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';

const listQuery = z.object(paginationQuery);

@Controller('v1/spaces/:spaceId/git')
export class ListGitImportsController {
  constructor(
    private readonly access: AccessService,
    private readonly imports: GitImportQueries,
  ) {}

  /** Quire's own: the space's import runs, newest first. */
  @Get('imports')
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    const q = parseInput(listQuery, query, 'query');
    return this.imports.list(spaceId, q);
  }
}
