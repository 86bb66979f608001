import { conflict } from '../shared/domain-error';
import { CustomHostnameEvent } from './custom-hostname.events';
import { CustomHostnameClaim, CustomHostnameReservationState } from './custom-hostname.state';

/**
 * Uniqueness of custom hostnames across the instance, without a transaction over two streams.
 *
 * An organization records a hostname in two steps: it claims the hostname's reservation stream
 * (noting the version its own stream was at), then appends `OrganizationCustomHostnameSet` to its
 * stream with exactly that expected version. So a claim can only ever become a hostname of its
 * organization while that organization's stream is still at the claimed version; once the stream
 * has moved past it and the organization does not show the hostname, the claim is dead (its
 * request lost a race, failed or crashed) and nobody can revive it but a new claim, which is a new
 * append to the reservation stream. Every decision below that gives a hostname away is therefore
 * made on "the holder moved past its claim without the hostname", read from the holder's own
 * stream, and appended with the reservation stream's expected version: a concurrent re-claim
 * makes that append fail and the decision is taken again.
 *
 * Consequences: an organization that leaves a hostname (set to another, removed) releases it
 * after recording that; if the release is lost (a crash), the next claimant sees a dead claim and
 * takes it. Read models see the previous owner let go before the next one takes it, in event order.
 */
export interface ReserveCustomHostname {
  type: 'ReserveCustomHostname';
  hostname: string;
  organizationId: string;
  /** The version of the organization's stream the coming append will expect. */
  organizationVersion: number;
}

/** Let go of a hostname the organization no longer shows. */
export interface ReleaseCustomHostname {
  type: 'ReleaseCustomHostname';
  hostname: string;
  organizationId: string;
}

/**
 * Let go of a claim made for an organization whose creation failed before its first event: its id
 * was fresh and is never used again, so its claim can never become a hostname.
 */
export interface AbandonCustomHostnameClaim {
  type: 'AbandonCustomHostnameClaim';
  hostname: string;
  organizationId: string;
}

export type CustomHostnameReservationCommand = ReserveCustomHostname | ReleaseCustomHostname | AbandonCustomHostnameClaim;

/** What the decision needs of the organization that holds the current claim, read from its stream. */
export interface ClaimHolder {
  organizationId: string;
  /** Events in its stream. */
  version: number;
  customHostname?: string;
}

/** True only when the holder is known (`holder` is the claim's organization) and provably moved on. */
export function isDeadClaim(hostname: string, claim: CustomHostnameClaim, holder: ClaimHolder | undefined): boolean {
  if (!holder || holder.organizationId !== claim.organizationId) return false;
  return holder.customHostname !== hostname && holder.version > claim.organizationVersion;
}

/**
 * `holder` is the organization behind the current claim, for `ReserveCustomHostname` by another
 * organization, or the releasing organization itself for `ReleaseCustomHostname`. When it does not
 * describe the claim's organization (the claim changed hands meanwhile), the claim is taken as live.
 */
export function decideCustomHostnameReservation(
  command: CustomHostnameReservationCommand,
  state: CustomHostnameReservationState,
  holder?: ClaimHolder,
): CustomHostnameEvent[] {
  const { hostname, organizationId } = command;
  switch (command.type) {
    case 'ReserveCustomHostname': {
      const claim = state.claim;
      // The holder's own new claim always appends: it supersedes its older one (and makes any
      // release decided on that older one fail its expected version).
      if (claim && claim.organizationId !== organizationId && !isDeadClaim(hostname, claim, holder)) {
        throw conflict(`The custom hostname "${hostname}" is already taken`);
      }
      return [{ type: 'CustomHostnameReserved', data: { hostname, organizationId, organizationVersion: command.organizationVersion } }];
    }
    case 'ReleaseCustomHostname':
      if (!state.claim || state.claim.organizationId !== organizationId || !isDeadClaim(hostname, state.claim, holder)) return [];
      return [{ type: 'CustomHostnameReleased', data: { hostname, organizationId } }];
    case 'AbandonCustomHostnameClaim':
      if (state.claim?.organizationId !== organizationId) return [];
      return [{ type: 'CustomHostnameReleased', data: { hostname, organizationId } }];
  }
}
