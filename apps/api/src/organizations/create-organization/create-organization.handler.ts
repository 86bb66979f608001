import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { conflict, decideOrganization, hostnameStream, organizationAggregate, organizationStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CreateOrganizationCommand } from './create-organization.command';

@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ title, hostname, creatorId }: CreateOrganizationCommand) {
    const organizationId = newId();
    if (hostname) {
      // Hostnames are unique: the reservation stream can be created once.
      await this.executor.append({
        stream: hostnameStream(hostname),
        aggregate: { initialState: () => ({ taken: false }), evolve: () => ({ taken: true }) },
        decide: (s) => {
          if (s.taken) throw conflict(`The hostname "${hostname}" is already taken`);
          return [{ type: 'HostnameReserved', data: { hostname, organizationId } }];
        },
        metadata: { actor: creatorId },
      });
    }
    await this.executor.execute({
      stream: organizationStream(organizationId),
      aggregate: organizationAggregate,
      decide: (state, ctx) => decideOrganization({ type: 'CreateOrganization', organizationId, title, hostname, creatorId }, state, ctx),
      metadata: { actor: creatorId },
    });
    return { organizationId };
  }
}
