import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSpace, spaceAggregate, spaceStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { DeleteSpaceCommand } from './delete-space.command';

@CommandHandler(DeleteSpaceCommand)
export class DeleteSpaceHandler implements ICommandHandler<DeleteSpaceCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ spaceId, actorId }: DeleteSpaceCommand) {
    const { events } = await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceAggregate,
      decide: (state, ctx) => decideSpace({ type: 'DeleteSpace', spaceId }, state, ctx),
      metadata: { actor: actorId },
    });
    return { deleted: events.length > 0 };
  }
}
