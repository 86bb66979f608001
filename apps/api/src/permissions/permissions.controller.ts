import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { notFound, Role } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ListResponse } from '@quire/platform/http/pagination';
import { AccessQueries, UserPermission } from '@quire/read-models/permissions/permissions.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { presentUser } from '../identity/identity.presenter';
import { AccessService } from './access.service';
import { aggregateQuery, inviteBody, listQuery, updateUserPermissionBody } from './permissions.dto';
import { SetCollectionPermissionsCommand } from './set-collection-permissions/set-collection-permissions.command';
import { SetSpacePermissionsCommand } from './set-space-permissions/set-space-permissions.command';

type Grants = Array<{ userId: string; role: Role | null }>;

/**
 * Who may use a space or collection. Changing grants needs `admin` on it; reading who has
 * access needs to see it (`read`). A `null` role removes the user's explicit grant.
 */
@Controller('v1')
export class PermissionsController {
  constructor(
    private readonly access: AccessService,
    private readonly queries: AccessQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post('spaces/:spaceId/permissions')
  @HttpCode(204)
  async inviteToSpace(@Param('spaceId') spaceId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'admin');
    await this.commands.execute(new SetSpacePermissionsCommand(spaceId, await this.invited(body), caller.user.id));
  }

  @Patch('spaces/:spaceId/permissions/users/:userId')
  @HttpCode(204)
  async updateInSpace(@Param('spaceId') spaceId: string, @Param('userId') userId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'admin');
    await this.commands.execute(new SetSpacePermissionsCommand(spaceId, await this.updated(userId, body), caller.user.id));
  }

  /** 205 when the user's grant was removed, 204 when they had none. */
  @Delete('spaces/:spaceId/permissions/users/:userId')
  async removeFromSpace(@Param('spaceId') spaceId: string, @Param('userId') userId: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    await this.access.spaceAccess(caller, spaceId, 'admin');
    parseInput(entityId, userId, 'userId');
    const { changed } = await this.commands.execute(new SetSpacePermissionsCommand(spaceId, [{ userId, role: null }], caller.user.id));
    await reply.status(changed ? 205 : 204).send();
  }

  @Get('spaces/:spaceId/permissions/aggregate')
  async aggregateInSpace(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId);
    return this.present(caller, await this.queries.aggregate(spaceId, parseInput(aggregateQuery, query, 'query')));
  }

  @Get('spaces/:spaceId/permissions/users')
  async grantsInSpace(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId);
    return this.present(caller, await this.queries.grants(spaceId, parseInput(listQuery, query, 'query')));
  }

  @Post('collections/:collectionId/permissions')
  @HttpCode(204)
  async inviteToCollection(@Param('collectionId') collectionId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.collectionAccess(caller, collectionId, 'admin');
    await this.commands.execute(new SetCollectionPermissionsCommand(collectionId, await this.invited(body), caller.user.id));
  }

  @Patch('collections/:collectionId/permissions/users/:userId')
  @HttpCode(204)
  async updateInCollection(
    @Param('collectionId') collectionId: string,
    @Param('userId') userId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    await this.access.collectionAccess(caller, collectionId, 'admin');
    await this.commands.execute(new SetCollectionPermissionsCommand(collectionId, await this.updated(userId, body), caller.user.id));
  }

  @Delete('collections/:collectionId/permissions/users/:userId')
  async removeFromCollection(
    @Param('collectionId') collectionId: string,
    @Param('userId') userId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    await this.access.collectionAccess(caller, collectionId, 'admin');
    parseInput(entityId, userId, 'userId');
    const { changed } = await this.commands.execute(new SetCollectionPermissionsCommand(collectionId, [{ userId, role: null }], caller.user.id));
    await reply.status(changed ? 205 : 204).send();
  }

  @Get('collections/:collectionId/permissions/aggregate')
  async aggregateInCollection(@Param('collectionId') collectionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.collectionAccess(caller, collectionId);
    return this.present(caller, await this.queries.aggregate(collectionId, parseInput(aggregateQuery, query, 'query')));
  }

  @Get('collections/:collectionId/permissions/users')
  async grantsInCollection(@Param('collectionId') collectionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.collectionAccess(caller, collectionId);
    return this.present(caller, await this.queries.grants(collectionId, parseInput(listQuery, query, 'query')));
  }

  /** GitBook's InviteUsersAndTeams; Quire has no teams, so any team id is unknown (404). */
  private async invited(body: unknown): Promise<Grants> {
    const input = parseInput(inviteBody, body);
    if (input.teams?.length) throw notFound('No team with the provided Id');
    const users = input.users ?? [];
    const known = await this.queries.existingUsers(users);
    if (users.some((id) => !known.has(id))) throw notFound('No user with the provided Id');
    return users.map((userId) => ({ userId, role: input.role }));
  }

  private async updated(userId: string, body: unknown): Promise<Grants> {
    parseInput(entityId, userId, 'userId');
    const { role } = parseInput(updateUserPermissionBody, body);
    if (!(await this.queries.existingUsers([userId])).has(userId)) throw notFound('No user found with the given ID');
    return [{ userId, role }];
  }

  private present(caller: Caller, page: ListResponse<UserPermission>) {
    return {
      ...page,
      items: page.items.map((p) => ({
        permission: p.permission,
        user: presentUser(this.config, p.user, { private: caller.instanceAdmin || p.user.id === caller.user.id }),
      })),
    };
  }
}
