import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { collectionAggregate, collectionStream, decideCollection } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CreateCollectionCommand } from './create-collection.command';

@CommandHandler(CreateCollectionCommand)
export class CreateCollectionHandler implements ICommandHandler<CreateCollectionCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input, actorId }: CreateCollectionCommand) {
    const collectionId = newId();
    await this.executor.execute({
      stream: collectionStream(collectionId),
      aggregate: collectionAggregate,
      decide: (state, ctx) => decideCollection({ type: 'CreateCollection', collectionId, creatorId: actorId, ...input }, state, ctx),
      metadata: { actor: actorId },
    });
    return { collectionId };
  }
}
