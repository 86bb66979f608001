import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideOrganization, organizationAggregate, OrganizationCustomHostnameSet, organizationStream, SetOrganizationCustomHostname } from '@quire/domain';
import { WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { CommandExecutor } from '@quire/projections/command-executor';
import { CustomHostnameReservations } from '../custom-hostname-reservations';
import { assertNotInstanceHostname } from '../instance-hostnames';
import { SetCustomHostnameCommand } from './set-custom-hostname.command';

const ATTEMPTS = 6;

/** The organization's stream moved between the claim and the append: claim again. */
class OrganizationMoved extends Error {}

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
    for (let attempt = 1; ; attempt++) {
      const organization = await this.reservations.organization(organizationId);
      if (decideOrganization(command, organization, { now: new Date() }).length === 0) return;
      assertNotInstanceHostname(this.config, hostname);
      await this.reservations.claim(hostname, organizationId, organization.version, actorId);
      try {
        const { state, events } = await this.executor.execute({
          stream: organizationStream(organizationId),
          aggregate: organizationAggregate,
          decide: (state, ctx) => {
            if (state.version !== organization.version) throw new OrganizationMoved();
            return decideOrganization(command, state, ctx);
          },
          metadata: { actor: actorId },
          retries: 0,
        });
        const previous = (events.find((e) => e.type === 'OrganizationCustomHostnameSet') as OrganizationCustomHostnameSet | undefined)?.data.previous;
        if (previous) await this.reservations.release(previous, state, actorId);
        return;
      } catch (err) {
        // The claim just made is dead now (the organization moved past it): nothing to undo.
        if (!(err instanceof OrganizationMoved || err instanceof WrongExpectedVersionError) || attempt >= ATTEMPTS) throw err;
      }
    }
  }
}
