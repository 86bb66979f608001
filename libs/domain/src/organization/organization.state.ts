import { Aggregate } from '../shared/event';
import { Role } from '../shared/roles';
import { OrganizationMergeRules } from '../space/space.settings';
import { OrganizationEvent } from './organization.events';

export interface OrganizationState {
  exists: boolean;
  organizationId?: string;
  members: Record<string, Role>;
  customHostname?: string;
  mergeRules: OrganizationMergeRules;
  /** Events in the stream: a custom hostname claim names the version its append will expect. */
  version: number;
}

export const organizationAggregate: Aggregate<OrganizationState, OrganizationEvent> = {
  initialState: () => ({ exists: false, members: {}, mergeRules: { type: 'none' }, version: 0 }),
  evolve(state, event) {
    return { ...apply(state, event), version: state.version + 1 };
  },
};

function apply(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  switch (event.type) {
    case 'OrganizationCreated':
      return { ...state, exists: true, organizationId: event.data.organizationId };
    case 'OrganizationMemberRoleSet':
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case 'OrganizationMemberRemoved': {
      const { [event.data.userId]: _removed, ...members } = state.members;
      return { ...state, members };
    }
    case 'OrganizationCustomHostnameSet':
      return { ...state, customHostname: event.data.hostname };
    case 'OrganizationCustomHostnameRemoved': {
      const { customHostname: _removed, ...rest } = state;
      return rest;
    }
    case 'OrganizationMergeRulesChanged':
      return { ...state, mergeRules: event.data.mergeRules };
    default:
      return state;
  }
}
