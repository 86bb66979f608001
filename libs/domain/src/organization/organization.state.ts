import { Aggregate } from '../shared/event';
import { Role } from '../shared/roles';
import { OrganizationEvent } from './organization.events';

export interface OrganizationState {
  exists: boolean;
  organizationId?: string;
  members: Record<string, Role>;
}

export const organizationAggregate: Aggregate<OrganizationState, OrganizationEvent> = {
  initialState: () => ({ exists: false, members: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return { ...state, exists: true, organizationId: event.data.organizationId };
      case 'OrganizationMemberRoleSet':
        return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
      case 'OrganizationMemberRemoved': {
        const { [event.data.userId]: _removed, ...members } = state.members;
        return { ...state, members };
      }
      default:
        return state;
    }
  },
};
