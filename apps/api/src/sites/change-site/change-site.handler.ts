import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSite, siteAggregate, siteStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ChangeSiteCommand } from './change-site.command';

@CommandHandler(ChangeSiteCommand)
export class ChangeSiteHandler implements ICommandHandler<ChangeSiteCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ siteId, change, actorId }: ChangeSiteCommand) {
    const { events } = await this.executor.execute({
      stream: siteStream(siteId),
      aggregate: siteAggregate,
      decide: (state, ctx) => decideSite(change, state, ctx),
      metadata: { actor: actorId },
    });
    return { changed: events.length > 0 };
  }
}
