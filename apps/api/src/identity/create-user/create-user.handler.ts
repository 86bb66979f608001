import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'crypto';
import { conflict, decideUser, emailStream, userAggregate, userStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CreateUserCommand } from './create-user.command';

@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input, actorId }: CreateUserCommand) {
    const userId = input.userId ?? newId();
    const emailHash = createHash('sha256').update(input.email.trim().toLowerCase()).digest('hex').slice(0, 40);
    // The email is reserved in its own stream first: two requests for one address cannot both pass.
    await this.executor.append({
      stream: emailStream(emailHash),
      aggregate: { initialState: () => ({ taken: false }), evolve: () => ({ taken: true }) },
      decide: (s) => {
        if (s.taken) throw conflict('A user with this email already exists');
        return [{ type: 'EmailReserved', data: { email: emailHash, userId } }];
      },
      metadata: { actor: actorId },
    });
    await this.executor.execute({
      stream: userStream(userId),
      aggregate: userAggregate,
      decide: (state, ctx) => decideUser({ type: 'CreateUser', userId, ...input }, state, ctx),
      metadata: { actor: actorId },
    });
    return { userId };
  }
}
