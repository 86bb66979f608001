import { Aggregate } from '../shared/event';
import { Role } from '../shared/roles';
import { SpaceEvent } from './space.events';
import { DefaultLevel, MergeRulesConfiguration, SpaceEditMode, SpaceVisibility, TranslationLanguage } from './space.settings';

export interface SpaceState {
  exists: boolean;
  spaceId?: string;
  organizationId?: string;
  parent?: string;
  title: string;
  emoji?: string;
  icon?: string;
  language?: TranslationLanguage;
  editMode: SpaceEditMode;
  defaultLevel: DefaultLevel;
  mergeRules: MergeRulesConfiguration;
  /** Set by UpdateSpace; unset means private (or in-collection, by the collection's access). */
  visibility?: SpaceVisibility;
  revision?: string;
  deletedAt?: string;
  /** Explicit grants on this space, by user id. */
  grants: Record<string, Role>;
}

export const spaceAggregate: Aggregate<SpaceState, SpaceEvent> = {
  initialState: () => ({ exists: false, title: '', editMode: 'live', defaultLevel: 'inherit', mergeRules: { type: 'inherit' }, grants: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'SpaceCreated': {
        const d = event.data;
        return {
          ...state,
          exists: true,
          spaceId: d.spaceId,
          organizationId: d.organizationId,
          parent: d.parent,
          title: d.title,
          emoji: d.emoji,
          icon: d.icon,
          language: d.language,
          editMode: d.editMode,
          defaultLevel: d.defaultLevel,
          mergeRules: d.mergeRules,
          revision: d.initialRevision,
        };
      }
      case 'SpaceUpdated': {
        const c = event.data.changes;
        const next: SpaceState = { ...state };
        if (c.title !== undefined) next.title = c.title;
        if (c.emoji !== undefined) next.emoji = c.emoji ?? undefined;
        if (c.icon !== undefined) next.icon = c.icon ?? undefined;
        if (c.editMode !== undefined) next.editMode = c.editMode;
        if (c.language !== undefined) next.language = c.language;
        if (c.defaultLevel !== undefined) next.defaultLevel = c.defaultLevel;
        if (c.mergeRules !== undefined) next.mergeRules = c.mergeRules;
        if (c.visibility !== undefined) next.visibility = c.visibility;
        return next;
      }
      case 'SpaceDeleted':
        return { ...state, deletedAt: event.data.at };
      case 'SpaceRestored':
        return { ...state, deletedAt: undefined };
      case 'SpaceUserPermissionSet':
        return { ...state, grants: { ...state.grants, [event.data.userId]: event.data.role } };
      case 'SpaceUserPermissionRemoved': {
        const { [event.data.userId]: _removed, ...grants } = state.grants;
        return { ...state, grants };
      }
      case 'SpaceRevisionChanged':
        return { ...state, revision: event.data.revision };
      default:
        return state;
    }
  },
};
