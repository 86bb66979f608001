import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { conflict, decideOrganization, hostnameStream, organizationAggregate, organizationStream } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CustomHostnameReservations } from '../../custom-hostnames/custom-hostname-reservations';
import { assertNotInstanceHostname } from '../../custom-hostnames/instance-hostnames';
import { CreateOrganizationCommand } from './create-organization.command';

@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly customHostnames: CustomHostnameReservations,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async execute({ title, hostname, creatorId, customHostname }: CreateOrganizationCommand) {
    const organizationId = newId();
    if (customHostname) assertNotInstanceHostname(this.config, customHostname);
    // Claimed for the organization's first append (version 0), which records it with the creation.
    if (customHostname) await this.customHostnames.claim(customHostname, organizationId, 0, creatorId);
    if (hostname) {
      // Hostnames are unique: the reservation stream can be created once.
      try {
        await this.executor.append({
          stream: hostnameStream(hostname),
          aggregate: { initialState: () => ({ taken: false }), evolve: () => ({ taken: true }) },
          decide: (s) => {
            if (s.taken) throw conflict(`The hostname "${hostname}" is already taken`);
            return [{ type: 'HostnameReserved', data: { hostname, organizationId } }];
          },
          metadata: { actor: creatorId },
        });
      } catch (err) {
        // The organization will not exist: its custom hostname goes back at once.
        if (customHostname) await this.customHostnames.abandon(customHostname, organizationId, creatorId);
        throw err;
      }
    }
    await this.executor.execute({
      stream: organizationStream(organizationId),
      aggregate: organizationAggregate,
      decide: (state, ctx) => decideOrganization({ type: 'CreateOrganization', organizationId, title, hostname, customHostname, creatorId }, state, ctx),
      metadata: { actor: creatorId },
    });
    return { organizationId };
  }
}
