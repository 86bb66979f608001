import { Aggregate } from '../shared/event';
import { Role } from '../shared/roles';
import { DefaultLevel } from '../space/space.settings';
import { CollectionEvent } from './collection.events';

export interface CollectionState {
  exists: boolean;
  collectionId?: string;
  organizationId?: string;
  parent?: string;
  title: string;
  description?: string;
  defaultLevel: DefaultLevel;
  /** Explicit grants on this collection, by user id. */
  grants: Record<string, Role>;
}

export const collectionAggregate: Aggregate<CollectionState, CollectionEvent> = {
  initialState: () => ({ exists: false, title: '', defaultLevel: 'inherit', grants: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'CollectionCreated': {
        const d = event.data;
        return {
          ...state,
          exists: true,
          collectionId: d.collectionId,
          organizationId: d.organizationId,
          parent: d.parent,
          title: d.title,
          description: d.description,
          defaultLevel: d.defaultLevel,
        };
      }
      case 'CollectionUpdated': {
        const c = event.data.changes;
        return {
          ...state,
          ...(c.title !== undefined ? { title: c.title } : {}),
          ...(c.description !== undefined ? { description: c.description } : {}),
          ...(c.defaultLevel !== undefined ? { defaultLevel: c.defaultLevel } : {}),
        };
      }
      case 'CollectionUserPermissionSet':
        return { ...state, grants: { ...state.grants, [event.data.userId]: event.data.role } };
      case 'CollectionUserPermissionRemoved': {
        const { [event.data.userId]: _removed, ...grants } = state.grants;
        return { ...state, grants };
      }
      default:
        return state;
    }
  },
};
