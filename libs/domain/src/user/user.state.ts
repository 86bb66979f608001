import { Aggregate } from '../shared/event';
import { UserEvent } from './user.events';

export interface UserState {
  exists: boolean;
  userId?: string;
  tokenIds: string[];
}

export const userAggregate: Aggregate<UserState, UserEvent> = {
  initialState: () => ({ exists: false, tokenIds: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'UserCreated':
        return { ...state, exists: true, userId: event.data.userId };
      case 'AccessTokenCreated':
        return { ...state, tokenIds: [...state.tokenIds, event.data.tokenId] };
      default:
        return state;
    }
  },
};
