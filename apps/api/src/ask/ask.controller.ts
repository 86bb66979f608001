import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { AskPipeline, SearchQueries } from '@quire/search';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { pageAppUrl } from '../search/search.presenter';
import { askBody, askQuery, askStreamQuery } from './ask.dto';
import { presentAnswer } from './ask.presenter';

/** GitBook's askInOrganization: an answer from the spaces of the organization the caller can read. */
@Controller('v1/orgs')
export class AskController {
  constructor(
    private readonly access: AccessService,
    private readonly search: SearchQueries,
    private readonly pipeline: AskPipeline,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post(':organizationId/ask')
  @HttpCode(200)
  async ask(@Param('organizationId') organizationId: string, @Query() query: unknown, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.organizationAccess(caller, organizationId, 'read');
    const options = parseInput(askQuery, query, 'query');
    const input = parseInput(askBody, body);
    return { answer: await this.answer(organizationId, caller, input.query, input.previousQueries, options.format) };
  }

  /**
   * GitBook's streamAskInOrganization: the same answer as one `SearchAIAnswerStream` event,
   * then `done`. Failures before the stream starts are ordinary JSON errors.
   */
  @Get(':organizationId/ask/stream')
  async stream(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    await this.access.organizationAccess(caller, organizationId, 'read');
    const options = parseInput(askStreamQuery, query, 'query');
    const answer = await this.answer(organizationId, caller, options.query, [], options.format);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    reply.raw.write(`event: answer\ndata: ${JSON.stringify({ type: 'answer', answer })}\n\n`);
    reply.raw.end('event: done\ndata: {}\n\n');
  }

  private async answer(organizationId: string, caller: Caller, question: string, previousQueries: string[] | undefined, format?: 'document' | 'markdown') {
    const spaces = await this.search.readableSpaces(organizationId, { userId: caller.user.id, instanceAdmin: caller.instanceAdmin });
    const answer = await this.pipeline.ask({
      spaces,
      query: question,
      previousQueries,
      link: ({ spaceId, path, sectionId }) => pageAppUrl(this.config, spaceId, path, sectionId),
    });
    return presentAnswer(answer, format);
  }
}
