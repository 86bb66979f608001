import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { z } from 'zod';
import { paginationQuery } from '@quire/platform/http/pagination';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { RevisionHistoryQueries } from '@quire/read-models/revisions/revision-history.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { entityId, parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { presentHistoryEntry } from './revision-history.presenter';

const listQuery = z.object(paginationQuery);

/**
 * A space's history, newest first (Quire's extension): every revision recorded for the space
 * (live revisions, restores, standalone imports), and a page's history, the revisions in which
 * that page changed (created, edited, moved, deleted).
 */
@Controller('v1/spaces/:spaceId')
export class ListRevisionsController {
  constructor(
    private readonly access: AccessService,
    private readonly history: RevisionHistoryQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('revisions')
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(listQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    const page = await this.history.list(spaceId, q);
    return { ...page, items: page.items.map((row) => presentHistoryEntry(this.config, spaceId, row)) };
  }

  @Get('pages/:pageId/revisions')
  async pageHistory(@Param('spaceId') spaceId: string, @Param('pageId') pageId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(listQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    parseInput(entityId, pageId, 'pageId');
    const page = await this.history.list(spaceId, { ...q, pageId });
    return { ...page, items: page.items.map((row) => presentHistoryEntry(this.config, spaceId, row)) };
  }
}
