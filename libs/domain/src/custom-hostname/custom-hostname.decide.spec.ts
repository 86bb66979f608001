import { decideCustomHostnameReservation, isDeadClaim } from './custom-hostname.decide';
import { CustomHostnameEvent, isCustomHostname } from './custom-hostname.events';
import { customHostnameReservationAggregate } from './custom-hostname.state';

const given = (events: CustomHostnameEvent[]) => events.reduce(customHostnameReservationAggregate.evolve, customHostnameReservationAggregate.initialState());
const hostname = 'docs.acme.com';
const reserved = (organizationId: string, organizationVersion: number): CustomHostnameEvent => ({
  type: 'CustomHostnameReserved',
  data: { hostname, organizationId, organizationVersion },
});
const reserve = (organizationId: string, organizationVersion: number) => ({ type: 'ReserveCustomHostname', hostname, organizationId, organizationVersion }) as const;

describe('custom hostname reservation', () => {
  it('given nothing, when an organization reserves it, then it holds it at the version it will append at', () => {
    const events = decideCustomHostnameReservation(reserve('o1', 4), given([]));
    expect(events).toEqual([reserved('o1', 4)]);
    expect(given(events).claim).toEqual({ organizationId: 'o1', organizationVersion: 4 });
  });

  it('given a live claim by another organization, when reserved, then it is a conflict', () => {
    const state = given([reserved('o1', 4)]);
    // o1 still at the claimed version: its append may still come.
    expect(() => decideCustomHostnameReservation(reserve('o2', 1), state, { organizationId: 'o1', version: 4 })).toThrow(expect.objectContaining({ code: 'conflict' }));
    // o1 moved on and shows the hostname: it is in use.
    expect(() => decideCustomHostnameReservation(reserve('o2', 1), state, { organizationId: 'o1', version: 9, customHostname: hostname })).toThrow(/already taken/);
    // Nothing known of the holder: taken as live.
    expect(() => decideCustomHostnameReservation(reserve('o2', 1), state)).toThrow(/already taken/);
    expect(() => decideCustomHostnameReservation(reserve('o2', 1), state, { organizationId: 'o3', version: 9 })).toThrow(/already taken/);
  });

  it('given a dead claim (the holder moved past it without the hostname), when reserved by another, then it changes hands', () => {
    const state = given([reserved('o1', 4)]);
    expect(isDeadClaim(hostname, state.claim!, { organizationId: 'o1', version: 5, customHostname: 'other.acme.com' })).toBe(true);
    expect(decideCustomHostnameReservation(reserve('o2', 1), state, { organizationId: 'o1', version: 5 })).toEqual([reserved('o2', 1)]);
  });

  it('given its own claim, when the same organization reserves again, then a new claim supersedes it', () => {
    expect(decideCustomHostnameReservation(reserve('o1', 7), given([reserved('o1', 4)]))).toEqual([reserved('o1', 7)]);
  });

  it('given a claim, when its organization releases it, then only a claim it provably left is released', () => {
    const state = given([reserved('o1', 4)]);
    const release = { type: 'ReleaseCustomHostname', hostname, organizationId: 'o1' } as const;
    expect(decideCustomHostnameReservation(release, state, { organizationId: 'o1', version: 4 })).toEqual([]);
    expect(decideCustomHostnameReservation(release, state, { organizationId: 'o1', version: 6, customHostname: hostname })).toEqual([]);
    const events = decideCustomHostnameReservation(release, state, { organizationId: 'o1', version: 6 });
    expect(events).toEqual([{ type: 'CustomHostnameReleased', data: { hostname, organizationId: 'o1' } }]);
    expect(given([reserved('o1', 4), ...events]).claim).toBeUndefined();
    // Another organization's claim is not its to release.
    expect(decideCustomHostnameReservation({ ...release, organizationId: 'o2' }, state, { organizationId: 'o2', version: 6 })).toEqual([]);
  });

  it('given a claim for an organization whose creation failed, when abandoned, then it is released', () => {
    const state = given([reserved('o1', 0)]);
    expect(decideCustomHostnameReservation({ type: 'AbandonCustomHostnameClaim', hostname, organizationId: 'o1' }, state)).toHaveLength(1);
    expect(decideCustomHostnameReservation({ type: 'AbandonCustomHostnameClaim', hostname, organizationId: 'o2' }, state)).toEqual([]);
  });

  it("accepts GitBook's SiteHostname only", () => {
    for (const ok of ['docs.acme.com', 'a.b.co', 'x1.docs-2.example.co.uk']) expect(isCustomHostname(ok)).toBe(true);
    for (const bad of ['acme', 'acme.com', 'Docs.acme.com', '-x.acme.com', 'docs.acme.com.', 'docs..acme.com', 'docs.acme.com:8080', 'a.b.c', `${'a'.repeat(64)}.acme.com`]) {
      expect(isCustomHostname(bad)).toBe(false);
    }
  });
});
