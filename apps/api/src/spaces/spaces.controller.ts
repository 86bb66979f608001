import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { z } from 'zod';
import { DomainError, Role, roleAtLeast, unprocessable } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { AccessQueries, SpaceAccessRow } from '@quire/read-models/permissions/permissions.queries';
import { SpaceQueries } from '@quire/read-models/spaces/spaces.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { listQuery } from '../permissions/permissions.dto';
import { CreateSpaceCommand } from './create-space/create-space.command';
import { DeleteSpaceCommand } from './delete-space/delete-space.command';
import { DuplicateSpaceCommand } from './duplicate-space/duplicate-space.command';
import { RestoreSpaceCommand } from './restore-space/restore-space.command';
import { UpdateSpaceCommand } from './update-space/update-space.command';
import { createSpaceBody, updateSpaceBody } from './spaces.dto';
import { presentSpace, presentSpaceJson } from './spaces.presenter';
import { opensShareLink } from './share-links';

const getSpaceQuery = z.object({ shareKey: z.string().max(500).optional() });

@Controller('v1')
export class SpacesController {
  constructor(
    private readonly access: AccessService,
    private readonly accessQueries: AccessQueries,
    private readonly identity: IdentityQueries,
    private readonly spaces: SpaceQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /** Needs `create` in the organization, or on the parent collection when one is given (guests included). */
  @Post('orgs/:organizationId/spaces')
  @HttpCode(201)
  async create(@Param('organizationId') organizationId: string, @Body() body: unknown, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    const input = parseInput(createSpaceBody, body);
    const collection = await this.access.creationParent(caller, organizationId, input.parent, 'space');
    const parent = collection ? { collectionId: collection.id, organizationId: collection.organization_id } : undefined;
    const { spaceId } = await this.commands.execute(new CreateSpaceCommand({ ...input, organizationId, parent }, caller.user.id));
    void reply.header('location', `${this.config.publicUrl}/v1/spaces/${spaceId}`);
    return this.show(caller, spaceId);
  }

  @Get('orgs/:organizationId/spaces')
  async list(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.organizationAccess(caller, organizationId);
    const q = parseInput(listQuery, query, 'query');
    const page = await this.spaces.inOrganization(organizationId, { userId: caller.user.id, instanceAdmin: caller.instanceAdmin }, q);
    return { ...page, items: page.items.map((s) => presentSpace(this.config, s.space, s.role)) };
  }

  @Get('spaces/:spaceId')
  async get(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    // shareKey: the key of a share-link space's published URL reads it without a role.
    const { shareKey } = parseInput(getSpaceQuery, query, 'query');
    const sharedWith = shareKey === undefined ? undefined : (space: SpaceAccessRow) => opensShareLink(this.config, space, shareKey);
    const { space, role } = await this.access.spaceAccess(caller, spaceId, 'read', { sharedWith });
    // The row is the access cache's: its bytes are made once, until an event replaces it.
    void reply.type('application/json; charset=utf-8');
    return presentSpaceJson(this.config, space, role);
  }

  @Patch('spaces/:spaceId')
  async update(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'admin');
    const changes = parseInput(updateSpaceBody, body);
    // Share keys are derived from QUIRE_SECRET_KEY (share-links.ts): without it there is no link to give.
    if (changes.visibility === 'share-link' && !this.config.secretKey) {
      throw unprocessable('The share-link visibility needs QUIRE_SECRET_KEY to be configured on the server');
    }
    await this.commands.execute(new UpdateSpaceCommand(spaceId, changes, caller.user.id));
    return this.show(caller, spaceId);
  }

  /** 205 when the space went to the trash, 204 when it already was there. */
  @Delete('spaces/:spaceId')
  async remove(@Param('spaceId') spaceId: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    await this.access.spaceAccess(caller, spaceId, 'admin', { deleted: true });
    const { deleted } = await this.commands.execute(new DeleteSpaceCommand(spaceId, caller.user.id));
    // Sent here: Nest would otherwise apply the route's fixed status.
    await reply.status(deleted ? 205 : 204).send();
  }

  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  async restore(@Param('spaceId') spaceId: string, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'admin', { deleted: true });
    await this.commands.execute(new RestoreSpaceCommand(spaceId, caller.user.id));
    return this.show(caller, spaceId);
  }

  /** Needs to read the space and `create` where the copy goes (its collection, or the organization). */
  @Post('spaces/:spaceId/duplicate')
  @HttpCode(201)
  async duplicate(@Param('spaceId') spaceId: string, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    const { space } = await this.access.spaceAccess(caller, spaceId);
    if (!roleAtLeast(await this.containerRole(caller, space), 'create')) {
      throw new DomainError('forbidden', 'Duplicating a space requires the create role where the space lives');
    }
    const copy = await this.commands.execute(new DuplicateSpaceCommand(spaceId, space.revision, caller.user.id));
    void reply.header('location', `${this.config.publicUrl}/v1/spaces/${copy.spaceId}`);
    return this.show(caller, copy.spaceId);
  }

  private async show(caller: Caller, spaceId: string) {
    const { space, role } = await this.access.spaceAccess(caller, spaceId);
    return presentSpace(this.config, space, role);
  }


  /** The caller's role on what encloses a space: its collection, or its organization. */
  private async containerRole(caller: Caller, space: SpaceAccessRow): Promise<Role | null> {
    if (space.parent) {
      const collection = await this.accessQueries.collection(space.parent, caller.user.id);
      return collection ? this.access.roleOf(caller, collection) : null;
    }
    if (caller.instanceAdmin) return 'admin';
    return (await this.identity.memberRole(space.organization_id, caller.user.id)) ?? null;
  }
}
