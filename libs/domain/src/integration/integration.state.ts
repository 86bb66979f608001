import { Aggregate } from '../shared/event';
import { IntegrationEvent } from './integration.events';

export interface IntegrationState {
  exists: boolean;
  organizationId?: string;
  /** The last published version; it keeps counting across an unpublish and a new publish. */
  version: number;
}

export const integrationAggregate: Aggregate<IntegrationState, IntegrationEvent> = {
  initialState: () => ({ exists: false, version: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'IntegrationPublished':
        return { exists: true, organizationId: event.data.organizationId, version: event.data.version };
      case 'IntegrationUnpublished':
        return { ...state, exists: false };
      default:
        return state;
    }
  },
};
