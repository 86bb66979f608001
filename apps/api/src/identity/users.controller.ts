import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { z } from 'zod';
import { DomainError, notFound } from '@quire/domain';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { CommandBus } from '@nestjs/cqrs';
import { CreateUserCommand } from './create-user/create-user.command';
import { CreateAccessTokenCommand } from './create-access-token/create-access-token.command';
import { presentUser } from './identity.presenter';

const createUserBody = z.object({
  displayName: z.string().trim().min(1).max(255),
  email: z.string().trim().email().max(320),
  photoURL: z.string().url().max(2048).optional(),
});
const createTokenBody = z.object({ label: z.string().trim().min(1).max(100).optional() }).strict();

@Controller('v1')
export class UsersController {
  constructor(
    private readonly identity: IdentityQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('user')
  async current(@CurrentCaller() caller: Caller) {
    const user = await this.identity.user(caller.user.id);
    if (!user) throw notFound('User not found');
    return presentUser(this.config, user, { private: true });
  }

  @Get('users/:userId')
  async get(@Param('userId') userId: string, @CurrentCaller() caller: Caller) {
    const user = await this.identity.user(userId);
    if (!user) throw notFound('User not found');
    // GitBook's User here is the public profile: the email is only on GET /user.
    return presentUser(this.config, user, { private: false });
  }

  /** Quire's own: only the instance administrator creates users. */
  @Post('users')
  @HttpCode(201)
  async create(@Body() body: unknown, @CurrentCaller() caller: Caller) {
    if (!caller.instanceAdmin) throw new DomainError('forbidden', 'Only the instance administrator can create users');
    const input = parseInput(createUserBody, body);
    const { userId } = await this.commands.execute(new CreateUserCommand(input, caller.user.id));
    return presentUser(this.config, (await this.identity.user(userId))!, { private: true });
  }

  /** Quire's own: a new access token, shown once. */
  @Post('users/:userId/tokens')
  @HttpCode(201)
  async createToken(@Param('userId') userId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    parseInput(entityId, userId, 'userId');
    const input = parseInput(createTokenBody, body);
    if (!caller.instanceAdmin && caller.user.id !== userId) throw new DomainError('forbidden', 'You can only create tokens for yourself');
    if (!(await this.identity.user(userId))) throw notFound('User not found');
    return this.commands.execute(new CreateAccessTokenCommand(userId, input.label, caller.user.id));
  }
}
