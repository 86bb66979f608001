import { Injectable } from '@nestjs/common';
import {
  ClaimHolder,
  customHostnameReservationAggregate,
  CustomHostnameReservationCommand,
  customHostnameStream,
  decideCustomHostnameReservation,
  organizationAggregate,
  OrganizationState,
  organizationStream,
} from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';

/**
 * The reservation side of custom hostnames (libs/domain/src/custom-hostname/custom-hostname.decide.ts
 * has the protocol): claims before an organization records a hostname, releases after it leaves one.
 */
@Injectable()
export class CustomHostnameReservations {
  constructor(private readonly executor: CommandExecutor) {}

  /** The organization's state from its stream, with its version (the claim needs it). */
  async organization(organizationId: string): Promise<OrganizationState> {
    return (await this.executor.load(organizationStream(organizationId), organizationAggregate)).state;
  }

  /** Claims `hostname` for the organization's append at `organizationVersion`; 409 when another organization holds it. */
  async claim(hostname: string, organizationId: string, organizationVersion: number, actorId: string): Promise<void> {
    // Whether another organization's claim is dead is read from that organization's stream.
    let holder: ClaimHolder | undefined;
    const current = await this.reservation(hostname);
    if (current && current !== organizationId) holder = holderFacts(current, await this.organization(current));
    await this.decide(hostname, { type: 'ReserveCustomHostname', hostname, organizationId, organizationVersion }, actorId, holder);
  }

  /** After the organization recorded that it left `hostname` (`organization` is its state since). */
  async release(hostname: string, organization: OrganizationState, actorId: string): Promise<void> {
    const organizationId = organization.organizationId!;
    await this.decide(hostname, { type: 'ReleaseCustomHostname', hostname, organizationId }, actorId, holderFacts(organizationId, organization));
  }

  /** A claim made for an organization whose creation failed before its first event. */
  async abandon(hostname: string, organizationId: string, actorId: string): Promise<void> {
    await this.decide(hostname, { type: 'AbandonCustomHostnameClaim', hostname, organizationId }, actorId);
  }

  private async reservation(hostname: string): Promise<string | undefined> {
    return (await this.executor.load(customHostnameStream(hostname), customHostnameReservationAggregate)).state.claim?.organizationId;
  }

  private async decide(hostname: string, command: CustomHostnameReservationCommand, actorId: string, holder?: ClaimHolder): Promise<void> {
    // A concurrent append makes the executor decide again on the fresh stream; a claim that changed
    // hands meanwhile is not the one `holder` describes, and is then taken as live (a 409).
    await this.executor.append({
      stream: customHostnameStream(hostname),
      aggregate: customHostnameReservationAggregate,
      decide: (state) => decideCustomHostnameReservation(command, state, holder),
      metadata: { actor: actorId },
    });
  }
}

const holderFacts = (organizationId: string, state: OrganizationState): ClaimHolder => ({
  organizationId,
  version: state.version,
  ...(state.customHostname ? { customHostname: state.customHostname } : {}),
});
