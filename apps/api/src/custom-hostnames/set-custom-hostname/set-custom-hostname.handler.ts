import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideOrganization, organizationAggregate, OrganizationCustomHostnameSet, organizationStream, SetOrganizationCustomHostname } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { CommandExecutor } from '@quire/projections/command-executor';
import { CustomHostnameReservations } from '../custom-hostname-reservations';
import { assertNotInstanceHostname } from '../instance-hostnames';
import { SetCustomHostnameCommand } from './set-custom-hostname.command';

const ATTEMPTS = 6;

/**
 * Claim the hostname at the organization's current version, then record it with exactly that
 * expected version (custom-hostname.decide.ts says why), then release the hostname it replaces.
 * Refusals (404, 403) and no-ops are decided before anything is claimed.
 */
@CommandHandler(SetCustomHostnameCommand)
export class SetCustomHostnameHandler implements ICommandHandler<SetCustomHostnameCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly reservations: CustomHostnameReservations,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async execute({ organizationId, hostname, actorId, actorIsInstanceAdmin }: SetCustomHostnameCommand) {
    const command: SetOrganizationCustomHostname = { type: 'SetOrganizationCustomHostname', organizationId, hostname, actorId, actorIsInstanceAdmin };
    const { state, events } = await this.executor.execute({
      stream: organizationStream(organizationId),
      aggregate: organizationAggregate,
      // The claim is made at the version the append expects: when the organization moves, the
      // append loses, and the claim is made again at the new version (the old one is dead then).
      prepare: async (organization) => {
        if (decideOrganization(command, organization.state, { now: new Date() }).length === 0) return;
        assertNotInstanceHostname(this.config, hostname);
        await this.reservations.claim(hostname, organizationId, organization.state.version, actorId);
      },
      decide: (state, ctx) => decideOrganization(command, state, ctx),
      metadata: { actor: actorId },
      retries: ATTEMPTS - 1,
    });
    const previous = (events.find((e) => e.type === 'OrganizationCustomHostnameSet') as OrganizationCustomHostnameSet | undefined)?.data.previous;
    if (previous) await this.reservations.release(previous, state, actorId);
  }
}
