import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideOrganization, organizationAggregate, organizationStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { SetOrganizationMergeRulesCommand } from './set-merge-rules.command';

@CommandHandler(SetOrganizationMergeRulesCommand)
export class SetOrganizationMergeRulesHandler implements ICommandHandler<SetOrganizationMergeRulesCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ organizationId, mergeRules, actorId, actorIsInstanceAdmin }: SetOrganizationMergeRulesCommand) {
    await this.executor.execute({
      stream: organizationStream(organizationId),
      aggregate: organizationAggregate,
      decide: (state, ctx) => decideOrganization({ type: 'SetOrganizationMergeRules', organizationId, mergeRules, actorId, actorIsInstanceAdmin }, state, ctx),
      metadata: { actor: actorId },
    });
  }
}
