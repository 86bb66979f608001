import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSite, siteAggregate, siteStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CreateSiteCommand } from './create-site.command';

@CommandHandler(CreateSiteCommand)
export class CreateSiteHandler implements ICommandHandler<CreateSiteCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input, actorId }: CreateSiteCommand) {
    const siteId = newId();
    await this.executor.execute({
      stream: siteStream(siteId),
      aggregate: siteAggregate,
      decide: (state, ctx) => decideSite({ type: 'CreateSite', siteId, creatorId: actorId, ...input }, state, ctx),
      metadata: { actor: actorId },
    });
    return { siteId };
  }
}
