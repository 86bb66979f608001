import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { collectionAggregate, collectionStream, decideCollection } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { SetCollectionPermissionsCommand } from './set-collection-permissions.command';

@CommandHandler(SetCollectionPermissionsCommand)
export class SetCollectionPermissionsHandler implements ICommandHandler<SetCollectionPermissionsCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ collectionId, grants, actorId }: SetCollectionPermissionsCommand) {
    const { events } = await this.executor.execute({
      stream: collectionStream(collectionId),
      aggregate: collectionAggregate,
      decide: (state, ctx) => decideCollection({ type: 'SetCollectionUserPermissions', collectionId, grants }, state, ctx),
      metadata: { actor: actorId },
    });
    return { changed: events.length };
  }
}
