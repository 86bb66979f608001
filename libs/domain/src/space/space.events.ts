import { DomainEvent } from '../shared/event';
import { Role } from '../shared/roles';
import { DefaultLevel, MergeRulesConfiguration, SpaceEditMode, SpaceVisibility, TranslationLanguage } from './space.settings';

export type SpaceCreated = DomainEvent<
  'SpaceCreated',
  {
    spaceId: string;
    organizationId: string;
    /** The enclosing collection, of the same organization. */
    parent?: string;
    title: string;
    emoji?: string;
    icon?: string;
    language?: TranslationLanguage;
    editMode: SpaceEditMode;
    defaultLevel: DefaultLevel;
    mergeRules: MergeRulesConfiguration;
    /** The id of the space's first revision; the content store creates that revision under it. */
    initialRevision: string;
    /** Create the space with no page at all (GitBook's `empty: true`). */
    empty?: boolean;
    /** A copy of this space: the content engineer copies `duplicatedFromRevision` into `initialRevision`. */
    duplicatedFrom?: string;
    duplicatedFromRevision?: string;
    createdBy: string;
    createdAt: string;
  }
>;

/** Only the settings that changed; `emoji`/`icon` null clears them. */
export interface SpaceChanges {
  title?: string;
  emoji?: string | null;
  icon?: string | null;
  editMode?: SpaceEditMode;
  language?: TranslationLanguage;
  defaultLevel?: DefaultLevel;
  mergeRules?: MergeRulesConfiguration;
  visibility?: SpaceVisibility;
}
export type SpaceUpdated = DomainEvent<'SpaceUpdated', { spaceId: string; changes: SpaceChanges; at: string }>;
export type SpaceDeleted = DomainEvent<'SpaceDeleted', { spaceId: string; at: string }>;
export type SpaceRestored = DomainEvent<'SpaceRestored', { spaceId: string; at: string }>;
export type SpaceUserPermissionSet = DomainEvent<'SpaceUserPermissionSet', { spaceId: string; userId: string; role: Role; at: string }>;
export type SpaceUserPermissionRemoved = DomainEvent<'SpaceUserPermissionRemoved', { spaceId: string; userId: string; at: string }>;
/** Appended by the content side when the space's live revision moves (merge, import...). */
export type SpaceRevisionChanged = DomainEvent<'SpaceRevisionChanged', { spaceId: string; revision: string }>;

export type SpaceEvent =
  | SpaceCreated
  | SpaceUpdated
  | SpaceDeleted
  | SpaceRestored
  | SpaceUserPermissionSet
  | SpaceUserPermissionRemoved
  | SpaceRevisionChanged;

export const spaceStream = (spaceId: string) => `space-${spaceId}`;
