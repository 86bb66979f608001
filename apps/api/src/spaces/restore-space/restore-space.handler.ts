import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSpace, spaceAggregate, spaceStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { RestoreSpaceCommand } from './restore-space.command';

@CommandHandler(RestoreSpaceCommand)
export class RestoreSpaceHandler implements ICommandHandler<RestoreSpaceCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ spaceId, actorId }: RestoreSpaceCommand) {
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceAggregate,
      decide: (state, ctx) => decideSpace({ type: 'RestoreSpace', spaceId }, state, ctx),
      metadata: { actor: actorId },
    });
  }
}
