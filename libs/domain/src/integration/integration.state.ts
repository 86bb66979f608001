import { Aggregate } from '../shared/event';
import { IntegrationEvent, SealedValue } from './integration.events';

export interface IntegrationState {
  exists: boolean;
  organizationId?: string;
  /** The last published version; it keeps counting across an unpublish and a new publish. */
  version: number;
  /** The sealed secrets of the live version, carried into a new one that does not send `secrets`. */
  secrets?: SealedValue;
}

export const integrationAggregate: Aggregate<IntegrationState, IntegrationEvent> = {
  initialState: () => ({ exists: false, version: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'IntegrationPublished':
        return { exists: true, organizationId: event.data.organizationId, version: event.data.version, secrets: event.data.secrets };
      case 'IntegrationUnpublished':
        return { ...state, exists: false, secrets: undefined };
      default:
        return state;
    }
  },
};
