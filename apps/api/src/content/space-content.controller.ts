import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { notFound } from '@quire/domain';
import { ContentStore } from '@quire/content/store';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { Caller, CurrentCaller } from '../http/auth';
import { AnswerConditional, Conditional } from '../http/conditional';
import { Read, ReadContext } from '../http/read-context';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { filesQuery, pageByIdQuery, pageByPathQuery, revisionQuery } from './content-options';
import { ContentReader } from './content-reader';
import { sendFile } from './send-file';
import { thenMaybe } from '@quire/platform/maybe-promise';

/** The space's live content: its current revision, files and pages (by id or by path). */
@Controller('v1/spaces/:spaceId/content')
export class SpaceContentController {
  constructor(
    private readonly access: AccessService,
    private readonly reader: ContentReader,
    private readonly content: ContentQueries,
    private readonly store: ContentStore,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get()
  async revision(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const q = parseInput(revisionQuery, query, 'query');
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.revision({ config: this.config, spaceId, metadata: q.metadata }, space.revision));
  }

  @Get('files')
  async files(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const q = parseInput(filesQuery, query, 'query');
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.files({ config: this.config, spaceId, metadata: q.metadata }, space.revision, q));
  }

  /**
   * A file's bytes (RevisionFile.downloadURL): as the live revision has it, or the newest
   * revision of the space that has it (a change request's file).
   */
  @Get('files/:fileId/download')
  async download(
    @Param('spaceId') spaceId: string,
    @Param('fileId') fileId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    parseInput(entityId, fileId, 'fileId');
    const file = await this.content.file(spaceId, fileId, space.revision);
    if (!file) throw notFound('File not found in this space');
    await sendFile(reply, this.store, spaceId, file);
  }

  /** The hot page reads take their request as one ReadContext (see there), and answer a warm read without a promise. */
  @Get('page/:pageId')
  pageById(@Read() { params: { spaceId, pageId }, query, caller, answer }: ReadContext<'spaceId' | 'pageId'>) {
    const q = parseInput(pageByIdQuery, query, 'query');
    return thenMaybe(this.reader.livePage({ config: this.config, spaceId, metadata: q.metadata }, caller, { id: pageId }, q), answer);
  }

  /**
   * `pagePath` may contain slashes: the official client does not encode them. Fastify has
   * already percent-decoded it: decoding again would misread a path with `%` in it.
   */
  @Get('path/*')
  pageByPath(@Read() { params: { spaceId, '*': pagePath }, query, caller, answer }: ReadContext<'spaceId' | '*'>) {
    const q = parseInput(pageByPathQuery, query, 'query');
    return thenMaybe(this.reader.livePage({ config: this.config, spaceId, metadata: q.metadata }, caller, { path: pagePath }, q), answer);
  }
}
