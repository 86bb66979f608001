import { decideOrganization } from './organization.decide';
import { OrganizationEvent } from './organization.events';
import { organizationAggregate } from './organization.state';
import { effectiveMergeRules } from '../change-request/merge-rules';

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

  it('given a member, when their role is set to null, then they leave the organization (a guest); the last admin cannot', () => {
    const created = decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now });
    const joined = [...created, ...decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u2', role: 'edit' }, given(created), { now })];
    const left = decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u2', role: null }, given(joined), { now });
    expect(left.map((e) => e.type)).toEqual(['OrganizationMemberRemoved']);
    expect(given([...joined, ...left]).members).toEqual({ u1: 'admin' });
    expect(decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u2', role: null }, given([...joined, ...left]), { now })).toEqual([]);
    expect(() => decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u1', role: null }, given(joined), { now })).toThrow(/at least one admin/);
  });

  describe('custom hostname', () => {
    const created = () => given(decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now }));
    const withReader = () => {
      const state = created();
      return given([
        ...decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now }),
        ...decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u2', role: 'create' }, state, { now }),
      ]);
    };
    const set = (hostname: string, actorId = 'u1', actorIsInstanceAdmin = false) =>
      ({ type: 'SetOrganizationCustomHostname', organizationId: 'o1', hostname, actorId, actorIsInstanceAdmin }) as const;

    it('given an organization, when its admin sets one, then it is recorded and counted in the version', () => {
      const state = created();
      expect(state.version).toBe(2);
      const events = decideOrganization(set('docs.acme.com'), state, { now });
      expect(events).toEqual([{ type: 'OrganizationCustomHostnameSet', data: { organizationId: 'o1', hostname: 'docs.acme.com', at: now.toISOString() } }]);
      expect(events.reduce(organizationAggregate.evolve, state)).toMatchObject({ customHostname: 'docs.acme.com', version: 3 });
    });

    it('given one, when another is set, then the event names the previous one (to release it)', () => {
      const state = [set('docs.acme.com')].reduce((s, c) => decideOrganization(c, s, { now }).reduce(organizationAggregate.evolve, s), created());
      expect(decideOrganization(set('help.acme.com'), state, { now })[0].data).toMatchObject({ hostname: 'help.acme.com', previous: 'docs.acme.com' });
      expect(decideOrganization(set('docs.acme.com'), state, { now })).toEqual([]);
    });

    it('given a member below admin, when they set or remove it, then it is refused; the instance admin may', () => {
      const state = withReader();
      expect(() => decideOrganization(set('docs.acme.com', 'u2'), state, { now })).toThrow(expect.objectContaining({ code: 'forbidden' }));
      expect(() => decideOrganization({ type: 'RemoveOrganizationCustomHostname', organizationId: 'o1', actorId: 'u2' }, state, { now })).toThrow(
        expect.objectContaining({ code: 'forbidden' }),
      );
      expect(() => decideOrganization(set('docs.acme.com', 'stranger'), state, { now })).toThrow(expect.objectContaining({ code: 'forbidden' }));
      expect(decideOrganization(set('docs.acme.com', 'admin', true), state, { now })).toHaveLength(1);
      expect(() => decideOrganization(set('docs.acme.com'), given([]), { now })).toThrow(expect.objectContaining({ code: 'not_found' }));
    });

    it('given one, when removed (by name or whatever it is), then it is gone; removing none is a no-op', () => {
      const state = decideOrganization(set('docs.acme.com'), created(), { now }).reduce(organizationAggregate.evolve, created());
      const remove = { type: 'RemoveOrganizationCustomHostname', organizationId: 'o1', actorId: 'u1' } as const;
      expect(decideOrganization({ ...remove, hostname: 'other.acme.com' }, state, { now })).toEqual([]);
      const events = decideOrganization({ ...remove, hostname: 'docs.acme.com' }, state, { now });
      expect(events).toEqual([{ type: 'OrganizationCustomHostnameRemoved', data: { organizationId: 'o1', hostname: 'docs.acme.com', at: now.toISOString() } }]);
      const after = events.reduce(organizationAggregate.evolve, state);
      expect(after.customHostname).toBeUndefined();
      expect(decideOrganization(remove, after, { now })).toEqual([]);
    });

    it('given a custom hostname at creation, then the organization starts with it', () => {
      const events = decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1', customHostname: 'docs.acme.com' }, given([]), { now });
      expect(events.map((e) => e.type)).toEqual(['OrganizationCreated', 'OrganizationMemberRoleSet', 'OrganizationCustomHostnameSet']);
      expect(given(events).customHostname).toBe('docs.acme.com');
    });
  });

  describe('merge rules', () => {
    const created = decideOrganization({ type: 'CreateOrganization', organizationId: 'o1', title: 'Acme', creatorId: 'u1' }, given([]), { now });
    const withEditor = [...created, ...decideOrganization({ type: 'SetOrganizationMemberRole', organizationId: 'o1', userId: 'u2', role: 'edit' }, given(created), { now })];
    const rules = { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_approved_review' as const }] };
    const set = (actorId: string, mergeRules: typeof rules | { type: 'none' } = rules, actorIsInstanceAdmin = false) =>
      ({ type: 'SetOrganizationMergeRules', organizationId: 'o1', mergeRules, actorId, actorIsInstanceAdmin }) as const;

    it('given none (the default), when an admin sets rules, then the inheriting spaces follow them', () => {
      expect(given(created).mergeRules).toEqual({ type: 'none' });
      const events = decideOrganization(set('u1'), given(withEditor), { now });
      expect(events).toEqual([{ type: 'OrganizationMergeRulesChanged', data: { organizationId: 'o1', mergeRules: rules, by: 'u1', at: now.toISOString() } }]);
      const state = given([...withEditor, ...events]);
      expect(effectiveMergeRules({ type: 'inherit' }, state.mergeRules)).toEqual(rules);
      expect(effectiveMergeRules({ type: 'none' }, state.mergeRules)).toEqual({ type: 'none' });
      expect(decideOrganization(set('u1'), state, { now })).toEqual([]);
    });

    it('given a member below admin, when they set rules, then it is refused; the instance admin may', () => {
      expect(() => decideOrganization(set('u2'), given(withEditor), { now })).toThrow(/admins can change its merge rules/);
      expect(decideOrganization(set('u9', rules, true), given(withEditor), { now })).toHaveLength(1);
    });
  });
});
