import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideOrganization, organizationAggregate, organizationStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { SetMemberRoleCommand } from './set-member-role.command';

@CommandHandler(SetMemberRoleCommand)
export class SetMemberRoleHandler implements ICommandHandler<SetMemberRoleCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ organizationId, userId, role, actorId }: SetMemberRoleCommand) {
    await this.executor.execute({
      stream: organizationStream(organizationId),
      aggregate: organizationAggregate,
      decide: (state, ctx) => decideOrganization({ type: 'SetOrganizationMemberRole', organizationId, userId, role }, state, ctx),
      metadata: { actor: actorId },
    });
  }
}
