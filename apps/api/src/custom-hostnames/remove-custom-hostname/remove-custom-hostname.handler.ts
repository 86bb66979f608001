import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideOrganization, organizationAggregate, OrganizationCustomHostnameRemoved, organizationStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { CustomHostnameReservations } from '../custom-hostname-reservations';
import { RemoveCustomHostnameCommand } from './remove-custom-hostname.command';

/** Record the removal on the organization, then release the hostname for others. */
@CommandHandler(RemoveCustomHostnameCommand)
export class RemoveCustomHostnameHandler implements ICommandHandler<RemoveCustomHostnameCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly reservations: CustomHostnameReservations,
  ) {}

  async execute({ organizationId, hostname, actorId, actorIsInstanceAdmin }: RemoveCustomHostnameCommand) {
    const { state, events } = await this.executor.execute({
      stream: organizationStream(organizationId),
      aggregate: organizationAggregate,
      decide: (state, ctx) => decideOrganization({ type: 'RemoveOrganizationCustomHostname', organizationId, hostname, actorId, actorIsInstanceAdmin }, state, ctx),
      metadata: { actor: actorId },
    });
    const removed = events.find((e) => e.type === 'OrganizationCustomHostnameRemoved') as OrganizationCustomHostnameRemoved | undefined;
    if (removed) await this.reservations.release(removed.data.hostname, state, actorId);
    return { removed: !!removed };
  }
}
