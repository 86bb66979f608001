import { Aggregate } from '../shared/event';
import { InstallationEvent } from './installation.events';

export interface InstallationState {
  installationId?: string;
}

export const installationAggregate: Aggregate<InstallationState, InstallationEvent> = {
  initialState: () => ({}),
  evolve(state, event) {
    switch (event.type) {
      case 'InstallationCreated':
        // The first identity stays: a second creation (never decided, see decide) must not rename it.
        return state.installationId ? state : { installationId: event.data.installationId };
      default:
        return state;
    }
  },
};
