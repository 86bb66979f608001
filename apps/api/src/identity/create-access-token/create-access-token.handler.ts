import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'crypto';
import { decideUser, userAggregate, userStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { hashToken } from '../../http/auth';
import { CreateAccessTokenCommand } from './create-access-token.command';

/** The token is returned once; only its hash is recorded. */
@CommandHandler(CreateAccessTokenCommand)
export class CreateAccessTokenHandler implements ICommandHandler<CreateAccessTokenCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ userId, label, actorId }: CreateAccessTokenCommand) {
    const token = `gb_api_${randomBytes(32).toString('base64url')}`;
    const tokenId = newId();
    await this.executor.execute({
      stream: userStream(userId),
      aggregate: userAggregate,
      decide: (state, ctx) => decideUser({ type: 'CreateAccessToken', userId, tokenId, tokenHash: hashToken(token), label }, state, ctx),
      metadata: { actor: actorId },
    });
    return { id: tokenId, token };
  }
}
