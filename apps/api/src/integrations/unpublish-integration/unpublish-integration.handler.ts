import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideIntegration, integrationAggregate, integrationStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { UnpublishIntegrationCommand } from './unpublish-integration.command';

@CommandHandler(UnpublishIntegrationCommand)
export class UnpublishIntegrationHandler implements ICommandHandler<UnpublishIntegrationCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ name, actorId }: UnpublishIntegrationCommand) {
    const { events } = await this.executor.execute({
      stream: integrationStream(name),
      aggregate: integrationAggregate,
      decide: (state, ctx) => decideIntegration({ type: 'UnpublishIntegration', name, actorId }, state, ctx),
      metadata: { actor: actorId },
    });
    return { deleted: events.length > 0 };
  }
}
