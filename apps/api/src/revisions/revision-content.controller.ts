import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { notFound } from '@quire/domain';
import { ContentStore } from '@quire/content/store';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { AnswerConditional, Conditional } from '../http/conditional';
import { Read, ReadContext } from '../http/read-context';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { defaultPageOptions, documentByIdQuery, documentQuery, filesQuery, pageByIdQuery, pageByPathQuery, revisionQuery } from '../content/content-options';
import { ContentReader } from '../content/content-reader';
import { sendFile } from '../content/send-file';
import { thenMaybe } from '@quire/platform/maybe-promise';

/**
 * GitBook's reads of any revision of a space (a past live revision, a change request's head, a
 * standalone import): the same reads as the live content's, of the revision the caller names,
 * with the same permissions. A revision the space does not have is a 404.
 */
@Controller('v1/spaces/:spaceId')
export class RevisionContentController {
  constructor(
    private readonly access: AccessService,
    private readonly reader: ContentReader,
    private readonly content: ContentQueries,
    private readonly store: ContentStore,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('revisions/:revisionId')
  async revision(@Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const q = parseInput(revisionQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.revision({ config: this.config, spaceId, metadata: q.metadata, filesRevision: revisionId }, revisionId, 'caller'));
  }

  @Get('revisions/:revisionId/pages')
  async pages(@Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const q = parseInput(revisionQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.pages({ config: this.config, spaceId, metadata: q.metadata, filesRevision: revisionId }, revisionId, 'caller'));
  }

  @Get('revisions/:revisionId/files')
  async files(@Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const q = parseInput(filesQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.files({ config: this.config, spaceId, metadata: q.metadata, filesRevision: revisionId }, revisionId, q, 'caller'));
  }

  @Get('revisions/:revisionId/files/:fileId')
  async file(
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('fileId') fileId: string,
    @Query() query: unknown,
    @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional,
  ) {
    const q = parseInput(revisionQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.file({ config: this.config, spaceId, metadata: q.metadata, filesRevision: revisionId }, revisionId, fileId, 'caller'));
  }

  /** The file's bytes as this revision has them (its downloadURL in revision reads), whatever replaced them since. */
  @Get('revisions/:revisionId/files/:fileId/download')
  async download(
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('fileId') fileId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    await this.reader.requireRevision(spaceId, revisionId);
    parseInput(entityId, fileId, 'fileId');
    const file = await this.content.revisionFile(spaceId, revisionId, fileId);
    if (!file) throw notFound('File not found in this revision');
    await sendFile(reply, this.store, spaceId, file);
  }

  /** The hot page reads take their request as one ReadContext (see there), and answer a warm read without a promise. */
  @Get('revisions/:revisionId/page/:pageId')
  pageById(@Read() { params: { spaceId, revisionId, pageId }, query, caller, answer }: ReadContext<'spaceId' | 'revisionId' | 'pageId'>) {
    const q = parseInput(pageByIdQuery, query, 'query');
    return thenMaybe(this.reader.revisionPage({ config: this.config, spaceId, metadata: q.metadata }, caller, revisionId, { id: pageId }, q), answer);
  }

  /** The page's document alone (GitBook's getPageDocumentInRevisionById); a group or link has none. */
  @Get('revisions/:revisionId/page/:pageId/document')
  pageDocument(@Read() { params: { spaceId, revisionId, pageId }, query, caller, answer }: ReadContext<'spaceId' | 'revisionId' | 'pageId'>) {
    const q = parseInput(documentQuery, query, 'query');
    const options = { ...defaultPageOptions, ...q, format: 'document' as const, metadata: false };
    return thenMaybe(this.reader.revisionPage({ config: this.config, spaceId, metadata: false }, caller, revisionId, { id: pageId }, options, 'document'), answer);
  }

  /**
   * GitBook's meta links (canonical and alternate URLs a page declares): Quire's pages declare
   * none, so an existing page has an empty set.
   */
  @Get('revisions/:revisionId/page/:pageId/meta-links')
  async pageMetaLinks(@Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Param('pageId') pageId: string, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const options = defaultPageOptions;
    const read = await this.reader.revisionPage({ config: this.config, spaceId, metadata: false }, caller, revisionId, { id: pageId }, options);
    return answer({ etag: read.etag, body: () => ({ alternates: [] }) });
  }

  /** `pagePath` may contain slashes: the official client does not encode them. Fastify has already decoded it (see SpaceContentController). */
  @Get('revisions/:revisionId/path/*')
  pageByPath(@Read() { params: { spaceId, revisionId, '*': pagePath }, query, caller, answer }: ReadContext<'spaceId' | 'revisionId' | '*'>) {
    const q = parseInput(pageByPathQuery, query, 'query');
    return thenMaybe(this.reader.revisionPage({ config: this.config, spaceId, metadata: q.metadata }, caller, revisionId, { path: pagePath }, q), answer);
  }

  /** Quire has no reusable contents (`{% include %}` files are pages' markdown): none is ever found, in GitBook's 404 body. */
  @Get('revisions/:revisionId/reusable-contents/:reusableContentId')
  async reusableContent(
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() query: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    parseInput(revisionQuery, query, 'query');
    return this.noReusableContent(caller, spaceId, revisionId, reusableContentId);
  }

  @Get('revisions/:revisionId/reusable-contents/:reusableContentId/document')
  async reusableContentDocument(
    @Param('spaceId') spaceId: string,
    @Param('revisionId') revisionId: string,
    @Param('reusableContentId') reusableContentId: string,
    @Query() query: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    parseInput(documentQuery, query, 'query');
    return this.noReusableContent(caller, spaceId, revisionId, reusableContentId);
  }

  /** A page's `documentId` resolves to its document, as GitBook's getDocumentById. */
  @Get('documents/:documentId')
  async document(@Param('spaceId') spaceId: string, @Param('documentId') documentId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Conditional() answer: AnswerConditional) {
    const q = parseInput(documentByIdQuery, query, 'query');
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    return answer(await this.reader.document({ config: this.config, spaceId, metadata: false }, space.revision, documentId, q));
  }

  /** Access and the revision are checked first, so the 404 says what is missing. */
  private async noReusableContent(caller: Caller, spaceId: string, revisionId: string, reusableContentId: string): Promise<never> {
    await this.access.spaceAccess(caller, spaceId, 'read');
    await this.reader.requireRevision(spaceId, revisionId);
    parseInput(entityId, reusableContentId, 'reusableContentId');
    throw notFound('Reusable content not found in this revision');
  }
}
