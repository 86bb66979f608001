import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSpace, spaceAggregate, spaceStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { SetSpacePermissionsCommand } from './set-space-permissions.command';

@CommandHandler(SetSpacePermissionsCommand)
export class SetSpacePermissionsHandler implements ICommandHandler<SetSpacePermissionsCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ spaceId, grants, actorId }: SetSpacePermissionsCommand) {
    const { events } = await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceAggregate,
      decide: (state, ctx) => decideSpace({ type: 'SetSpaceUserPermissions', spaceId, grants }, state, ctx),
      metadata: { actor: actorId },
    });
    return { changed: events.length };
  }
}
