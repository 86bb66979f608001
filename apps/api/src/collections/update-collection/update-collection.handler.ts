import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { collectionAggregate, collectionStream, decideCollection } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { UpdateCollectionCommand } from './update-collection.command';

@CommandHandler(UpdateCollectionCommand)
export class UpdateCollectionHandler implements ICommandHandler<UpdateCollectionCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ collectionId, changes, actorId }: UpdateCollectionCommand) {
    await this.executor.execute({
      stream: collectionStream(collectionId),
      aggregate: collectionAggregate,
      decide: (state, ctx) => decideCollection({ type: 'UpdateCollection', collectionId, changes }, state, ctx),
      metadata: { actor: actorId },
    });
  }
}
