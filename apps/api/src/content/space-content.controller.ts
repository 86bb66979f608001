import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { filesQuery, pageByIdQuery, pageByPathQuery, revisionQuery } from './content-options';
import { ContentReader } from './content-reader';

/** The space's live content: its current revision, files and pages (by id or by path). */
@Controller('v1/spaces/:spaceId/content')
export class SpaceContentController {
  constructor(
    private readonly access: AccessService,
    private readonly reader: ContentReader,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get()
  async revision(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(revisionQuery, query, 'query');
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    return this.reader.revision({ config: this.config, spaceId, metadata: q.metadata }, space.revision);
  }

  @Get('files')
  async files(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(filesQuery, query, 'query');
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    return this.reader.files({ config: this.config, spaceId, metadata: q.metadata }, space.revision, q);
  }

  @Get('page/:pageId')
  async pageById(@Param('spaceId') spaceId: string, @Param('pageId') pageId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(pageByIdQuery, query, 'query');
    parseInput(entityId, spaceId, 'spaceId');
    return this.reader.livePage({ config: this.config, spaceId, metadata: q.metadata }, caller, { id: pageId }, q);
  }

  /** `pagePath` may contain slashes: the official client does not encode them. */
  @Get('path/*')
  async pageByPath(@Param('spaceId') spaceId: string, @Param('*') pagePath: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(pageByPathQuery, query, 'query');
    parseInput(entityId, spaceId, 'spaceId');
    return this.reader.livePage({ config: this.config, spaceId, metadata: q.metadata }, caller, { path: decodeURIComponent(pagePath) }, q);
  }
}
