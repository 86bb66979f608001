import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { badRequest } from '@quire/domain';
import type { ContentChange } from '@quire/content/edit';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { Caller, CurrentCaller } from '../http/auth';
import { AnswerConditional, Conditional } from '../http/conditional';
import { Read, ReadContext } from '../http/read-context';
import { parseInput } from '../http/validation';
import { filesQuery, pageByIdQuery, pageByPathQuery, PageOptions, revisionQuery } from '../content/content-options';
import { ContentReader, PageKey } from '../content/content-reader';
import { ChangeRequestAccess } from './change-request-access.service';
import { ContentChangeInput, contentChangesBody, contentChangesQuery, MAX_INLINE_FILE_BYTES } from './change-requests.dto';
import { presentChangeRequest, presentContentUpdate } from './change-requests.presenter';
import { fetchPublicFile } from './update-change-request-content/fetch-public-file';
import { UpdateChangeRequestContentCommand } from './update-change-request-content/update-change-request-content.command';

/** Files named by URL in insert_files: at most this much, fetched within this time. */
const URL_FILE_MAX_BYTES = 10 * 1024 * 1024;
const URL_FETCH_TIMEOUT_MS = 15_000;

/** A change request's content: its head revision, files and pages (same options as the space's), and the batch edit. */
@Controller('v1/spaces/:spaceId/change-requests/:changeRequestId/content')
export class ChangeRequestContentController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly reader: ContentReader,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get()
  async revision(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string,
    @Query() query: unknown,
    @CurrentCaller() caller: Caller,
    @Conditional() answer: AnswerConditional,
  ) {
    const q = parseInput(revisionQuery, query, 'query');
    const row = await this.access.head(caller, spaceId, key);
    return answer(await this.reader.revision({ config: this.config, spaceId, metadata: q.metadata }, row.revision));
  }

  @Get('files')
  async files(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string,
    @Query() query: unknown,
    @CurrentCaller() caller: Caller,
    @Conditional() answer: AnswerConditional,
  ) {
    const q = parseInput(filesQuery, query, 'query');
    const row = await this.access.head(caller, spaceId, key);
    return answer(await this.reader.files({ config: this.config, spaceId, metadata: q.metadata }, row.revision, q));
  }

  /** The hot page reads take their request as one ReadContext (see there). */
  @Get('page/:pageId')
  async pageById(@Read() { params: { spaceId, changeRequestId: key, pageId }, query, caller, answer }: ReadContext<'spaceId' | 'changeRequestId' | 'pageId'>) {
    const q = parseInput(pageByIdQuery, query, 'query');
    return answer(await this.page(caller, spaceId, key, { id: pageId }, q));
  }

  /** `pagePath` may contain slashes: the official client does not encode them. Fastify has already decoded it (see SpaceContentController). */
  @Get('path/*')
  async pageByPath(@Read() { params: { spaceId, changeRequestId: key, '*': pagePath }, query, caller, answer }: ReadContext<'spaceId' | 'changeRequestId' | '*'>) {
    const q = parseInput(pageByPathQuery, query, 'query');
    return answer(await this.page(caller, spaceId, key, { path: pagePath }, q));
  }

  /** Access and the change request's head are read per request; the page of that head comes from the revision cache. */
  private async page(caller: Caller, spaceId: string, key: string, by: PageKey, options: PageOptions) {
    const head = await this.access.head(caller, spaceId, key);
    return this.reader.pageRead({ config: this.config, spaceId, metadata: options.metadata }, head.revision, by, options);
  }

  /** GitBook's updateChangeRequestContent: `compat=true` (default) answers the ChangeRequest, `false` the ChangeRequestContentUpdate. */
  @Post()
  @HttpCode(200)
  async update(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Body() body: unknown, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'edit');
    const { compat } = parseInput(contentChangesQuery, query, 'query');
    const { changes } = parseInput(contentChangesBody, body);
    const resolved = await Promise.all(changes.map((c, i) => withFileBytes(c, i)));
    const { outcomes, insertedFiles } = await this.commands.execute(new UpdateChangeRequestContentCommand(spaceId, row.id, resolved, caller.user.id));
    const updated = await this.access.reload(spaceId, row.id);
    return compat ? presentChangeRequest(this.config, updated) : presentContentUpdate(this.config, updated, outcomes, insertedFiles);
  }
}

/** insert_files: base64 decoded (at most 1 MB), URLs fetched from public addresses only. */
async function withFileBytes(change: ContentChangeInput, index: number): Promise<ContentChange> {
  if (change.operation !== 'insert_files') return change as ContentChange;
  const files = await Promise.all(
    change.files.map(async (file, j) => {
      const where = `changes[${index}].files[${j}]`;
      if (file.base64 !== undefined) {
        const bytes = new Uint8Array(Buffer.from(file.base64.replace(/\s+/g, ''), 'base64'));
        if (bytes.byteLength > MAX_INLINE_FILE_BYTES) throw badRequest(`Invalid body: ${where}.base64: at most 1 MB of data`);
        return { name: file.name, ref: file.ref, contentType: file.contentType, bytes };
      }
      const fetched = await fetchPublicFile(file.url!, { maxBytes: URL_FILE_MAX_BYTES, timeoutMs: URL_FETCH_TIMEOUT_MS }).catch((err) => {
        throw badRequest(`Invalid body: ${where}.url: ${err.message}`);
      });
      return { name: file.name, ref: file.ref, contentType: file.contentType ?? fetched.contentType, bytes: fetched.bytes };
    }),
  );
  return { operation: 'insert_files', files };
}
