import { decideOrganization } from './organization.decide';
import { OrganizationEvent } from './organization.events';
import { organizationAggregate } from './organization.state';

const now = new Date('2026-01-01T00:00:00Z');
const given = (events: OrganizationEvent[]) => events.reduce(organizationAggregate.evolve, organizationAggregate.initialState());

describe('organization', () => {
  it('given nothing, when created, then the creator becomes its admin', () => {
    const events = decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now });
    expect(events.map((e) => e.type)).toEqual(['OrganizationCreated', 'OrganizationMemberRoleSet']);
    expect(given(events).members).toEqual({ u1: 'admin' });
  });

  it('given a sole admin, when demoted, then it is refused', () => {
    const state = given(decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now }));
    expect(() => decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u1', role: 'read' }, state, { now })).toThrow(
      /at least one admin/,
    );
  });

  it('given a member with that role already, when set again, then nothing happens', () => {
    const state = given(decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now }));
    expect(decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u1', role: 'admin' }, state, { now })).toEqual([]);
  });
});
