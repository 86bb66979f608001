import { Aggregate } from '../shared/event';
import { CustomHostnameEvent } from './custom-hostname.events';

export interface CustomHostnameClaim {
  organizationId: string;
  organizationVersion: number;
}

export interface CustomHostnameReservationState {
  /** The latest claim, until released. */
  claim?: CustomHostnameClaim;
}

export const customHostnameReservationAggregate: Aggregate<CustomHostnameReservationState, CustomHostnameEvent> = {
  initialState: () => ({}),
  evolve(state, event) {
    switch (event.type) {
      case 'CustomHostnameReserved':
        return { claim: { organizationId: event.data.organizationId, organizationVersion: event.data.organizationVersion } };
      case 'CustomHostnameReleased':
        return state.claim?.organizationId === event.data.organizationId ? {} : state;
      default:
        return state;
    }
  },
};
