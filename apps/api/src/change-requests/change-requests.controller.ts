import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { badRequest } from '@quire/domain';
import { documentToMarkdown, JSONDocument, markdownToDocument } from '@quire/content/markdown';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { ChangeRequestContributorQueries } from '@quire/read-models/change-request-contributors/contributors.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { ChangeRequestAccess } from './change-request-access.service';
import { createChangeRequestBody, editChangeRequestBody, listChangeRequestsQuery, listContributorsQuery } from './change-requests.dto';
import { changeRequestLocation, presentChangeRequest, presentContributor } from './change-requests.presenter';
import { CreateChangeRequestCommand } from './create-change-request/create-change-request.command';
import { EditChangeRequestCommand } from './edit-change-request/edit-change-request.command';

/** A space's change requests: create, list, read, edit (merge and update have their own use-case folders). */
@Controller('v1/spaces/:spaceId/change-requests')
export class ChangeRequestsController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly changeRequests: ChangeRequestQueries,
    private readonly contributors: ChangeRequestContributorQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.access.space(caller, spaceId, 'edit');
    const input = parseInput(createChangeRequestBody, body);
    const { changeRequestId } = await this.commands.execute(new CreateChangeRequestCommand(spaceId, input.subject, caller.user.id));
    void reply.header('location', changeRequestLocation(this.config, spaceId, changeRequestId));
    return presentChangeRequest(this.config, await this.access.reload(spaceId, changeRequestId));
  }

  @Get()
  async list(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.space(caller, spaceId, 'read');
    const q = parseInput(listChangeRequestsQuery, query, 'query');
    // Change requests are never linked to site topics in Quire.
    if (q.topic !== undefined) return { items: [] };
    const page = await this.changeRequests.list(spaceId, q);
    return { ...page, items: page.items.map((row) => presentChangeRequest(this.config, row)) };
  }

  @Get(':changeRequestId')
  async get(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    return presentChangeRequest(this.config, row);
  }

  /** Who edited the change request's content and who commented in it. */
  @Get(':changeRequestId/contributors')
  async listContributors(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    const page = await this.contributors.contributors(row.id, parseInput(listContributorsQuery, query, 'query'));
    return { ...page, items: page.items.map((c) => presentContributor(this.config, c)) };
  }

  /** `prefer: return=minimal` answers 204 with `Preference-Applied`. */
  @Patch(':changeRequestId')
  async edit(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string,
    @Body() body: unknown,
    @Headers('prefer') prefer: string | undefined,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'edit');
    const input = parseInput(editChangeRequestBody, body);
    const changes = {
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.description !== undefined ? { description: normaliseDescription(input.description) } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
    };
    await this.commands.execute(new EditChangeRequestCommand(row.id, changes, caller.user.id));
    // Sent here: Nest would otherwise apply the route's fixed status.
    if (/\breturn=minimal\b/i.test(prefer ?? '')) {
      await reply.status(204).header('preference-applied', 'return=minimal').send();
      return;
    }
    await reply.status(200).send(presentChangeRequest(this.config, await this.access.reload(spaceId, row.id)));
  }

}

/** A description is kept as the document its markdown reads back as, so what is served always fits GitBook's schema. */
export function normaliseDescription(doc: unknown, field = 'description'): JSONDocument {
  try {
    // A leading paragraph keeps a first `# heading` in the document (a page would take it as its title).
    const parsed = markdownToDocument(`.\n\n${documentToMarkdown(doc as JSONDocument)}`).document;
    return { ...parsed, nodes: parsed.nodes.slice(1) };
  } catch {
    throw badRequest(`Invalid body: ${field}: not a document GitBook can read`);
  }
}
