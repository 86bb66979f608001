import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSpace, spaceAggregate, spaceStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { UpdateSpaceCommand } from './update-space.command';

@CommandHandler(UpdateSpaceCommand)
export class UpdateSpaceHandler implements ICommandHandler<UpdateSpaceCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ spaceId, changes, actorId }: UpdateSpaceCommand) {
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceAggregate,
      decide: (state, ctx) => decideSpace({ type: 'UpdateSpace', spaceId, changes }, state, ctx),
      metadata: { actor: actorId },
    });
  }
}
