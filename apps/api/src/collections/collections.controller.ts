import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { CollectionQueries } from '@quire/read-models/collections/collections.queries';
import { SpaceQueries } from '@quire/read-models/spaces/spaces.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { listQuery } from '../permissions/permissions.dto';
import { presentSpace } from '../spaces/spaces.presenter';
import { CreateCollectionCommand } from './create-collection/create-collection.command';
import { UpdateCollectionCommand } from './update-collection/update-collection.command';
import { createCollectionBody, listCollectionsQuery, updateCollectionBody } from './collections.dto';
import { presentCollection } from './collections.presenter';

@Controller('v1')
export class CollectionsController {
  constructor(
    private readonly access: AccessService,
    private readonly collections: CollectionQueries,
    private readonly spaces: SpaceQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /** Needs `create` in the organization, or on the parent collection when one is given (guests included). */
  @Post('orgs/:organizationId/collections')
  @HttpCode(201)
  async create(@Param('organizationId') organizationId: string, @Body() body: unknown, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    const input = parseInput(createCollectionBody, body);
    const collection = await this.access.creationParent(caller, organizationId, input.parent, 'collection');
    const parent = collection ? { collectionId: collection.id, organizationId: collection.organization_id, depth: collection.depth } : undefined;
    const { collectionId } = await this.commands.execute(new CreateCollectionCommand({ organizationId, title: input.title, parent }, caller.user.id));
    void reply.header('location', `${this.config.publicUrl}/v1/collections/${collectionId}`);
    return this.show(caller, collectionId);
  }

  @Get('orgs/:organizationId/collections')
  async list(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.organizationAccess(caller, organizationId);
    const q = parseInput(listCollectionsQuery, query, 'query');
    const page = await this.collections.inOrganization(
      organizationId,
      { userId: caller.user.id, instanceAdmin: caller.instanceAdmin },
      { page: q.page, limit: q.limit, nested: q.nested ?? true },
    );
    return { ...page, items: page.items.map((c) => presentCollection(this.config, c.collection, c.role)) };
  }

  @Get('collections/:collectionId')
  async get(@Param('collectionId') collectionId: string, @CurrentCaller() caller: Caller) {
    return this.show(caller, collectionId);
  }

  @Patch('collections/:collectionId')
  async update(@Param('collectionId') collectionId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.collectionAccess(caller, collectionId, 'admin');
    const changes = parseInput(updateCollectionBody, body);
    await this.commands.execute(new UpdateCollectionCommand(collectionId, changes, caller.user.id));
    return this.show(caller, collectionId);
  }

  /** The spaces directly in the collection that the caller can read. */
  @Get('collections/:collectionId/spaces')
  async spacesIn(@Param('collectionId') collectionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.collectionAccess(caller, collectionId);
    const q = parseInput(listQuery, query, 'query');
    const page = await this.spaces.inCollection(collectionId, { userId: caller.user.id, instanceAdmin: caller.instanceAdmin }, q);
    return { ...page, items: page.items.map((s) => presentSpace(this.config, s.space, s.role)) };
  }

  private async show(caller: Caller, collectionId: string) {
    const { collection, role } = await this.access.collectionAccess(caller, collectionId);
    return presentCollection(this.config, collection, role);
  }
}
