import { badRequest, conflict, notFound } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { Role } from '../shared/roles';
import { SpaceChanges, SpaceEvent } from './space.events';
import { SpaceState } from './space.state';
import {
  DefaultLevel,
  MergeRulesConfiguration,
  SPACE_RESTORE_WINDOW_MS,
  SPACE_TITLE_MAX,
  SpaceEditMode,
  TranslationLanguage,
} from './space.settings';

export interface CreateSpace {
  type: 'CreateSpace';
  spaceId: string;
  organizationId: string;
  title?: string;
  emoji?: string;
  /** The enclosing collection and the organization it belongs to (read by the handler). */
  parent?: { collectionId: string; organizationId: string };
  language?: TranslationLanguage;
  editMode?: SpaceEditMode;
  empty?: boolean;
  initialRevision: string;
  creatorId: string;
}

export interface DuplicateSpace {
  type: 'DuplicateSpace';
  spaceId: string;
  source: SpaceState;
  initialRevision: string;
  creatorId: string;
}

export interface UpdateSpace {
  type: 'UpdateSpace';
  spaceId: string;
  changes: SpaceChanges;
}

export interface DeleteSpace {
  type: 'DeleteSpace';
  spaceId: string;
}

export interface RestoreSpace {
  type: 'RestoreSpace';
  spaceId: string;
}

/** Sets (role) or removes (null) users' explicit grants on the space. */
export interface SetSpaceUserPermissions {
  type: 'SetSpaceUserPermissions';
  spaceId: string;
  grants: Array<{ userId: string; role: Role | null }>;
}

export type SpaceCommand = CreateSpace | DuplicateSpace | UpdateSpace | DeleteSpace | RestoreSpace | SetSpaceUserPermissions;

export const DEFAULT_SPACE_TITLE = 'Untitled';

export function decideSpace(command: SpaceCommand, state: SpaceState, ctx: DecideContext): SpaceEvent[] {
  const at = ctx.now.toISOString();
  switch (command.type) {
    case 'CreateSpace': {
      if (state.exists) throw conflict(`Space ${command.spaceId} already exists`);
      const title = command.title ?? DEFAULT_SPACE_TITLE;
      assertTitle(title);
      if (command.parent && command.parent.organizationId !== command.organizationId) {
        throw badRequest('The parent collection belongs to another organization');
      }
      return [
        {
          type: 'SpaceCreated',
          data: {
            spaceId: command.spaceId,
            organizationId: command.organizationId,
            parent: command.parent?.collectionId,
            title,
            emoji: command.emoji,
            language: command.language,
            editMode: command.editMode ?? 'live',
            defaultLevel: 'inherit',
            mergeRules: { type: 'inherit' },
            initialRevision: command.initialRevision,
            empty: command.empty || undefined,
            createdBy: command.creatorId,
            createdAt: at,
          },
        },
        creatorGrant(command.spaceId, command.creatorId, at),
      ];
    }
    case 'DuplicateSpace': {
      if (state.exists) throw conflict(`Space ${command.spaceId} already exists`);
      const source = command.source;
      if (!source.exists || source.deletedAt) throw notFound('Space not found');
      return [
        {
          type: 'SpaceCreated',
          data: {
            spaceId: command.spaceId,
            organizationId: source.organizationId!,
            parent: source.parent,
            title: copyTitle(source.title),
            emoji: source.emoji,
            icon: source.icon,
            language: source.language,
            editMode: source.editMode,
            defaultLevel: source.defaultLevel,
            mergeRules: source.mergeRules,
            initialRevision: command.initialRevision,
            duplicatedFrom: source.spaceId,
            duplicatedFromRevision: source.revision,
            createdBy: command.creatorId,
            createdAt: at,
          },
        },
        creatorGrant(command.spaceId, command.creatorId, at),
      ];
    }
    case 'UpdateSpace': {
      assertLive(state);
      const changes = changedSettings(state, oneIcon(command.changes));
      if (changes.title !== undefined) assertTitle(changes.title);
      if (changes.visibility === 'in-collection' && !state.parent) throw badRequest('Only a space in a collection can have the in-collection visibility');
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'SpaceUpdated', data: { spaceId: command.spaceId, changes, at } }];
    }
    case 'DeleteSpace':
      if (!state.exists) throw notFound('Space not found');
      if (state.deletedAt) return [];
      return [{ type: 'SpaceDeleted', data: { spaceId: command.spaceId, at } }];
    case 'RestoreSpace':
      if (!state.exists) throw notFound('Space not found');
      if (!state.deletedAt) return [];
      // Past the window, a deleted space is gone for good (GitBook purges it).
      if (ctx.now.getTime() - Date.parse(state.deletedAt) > SPACE_RESTORE_WINDOW_MS) throw notFound('Space not found');
      return [{ type: 'SpaceRestored', data: { spaceId: command.spaceId, at } }];
    case 'SetSpaceUserPermissions': {
      assertLive(state);
      const events: SpaceEvent[] = [];
      for (const { userId, role } of dedupe(command.grants)) {
        const current = state.grants[userId];
        if (role === null) {
          if (current) events.push({ type: 'SpaceUserPermissionRemoved', data: { spaceId: command.spaceId, userId, at } });
        } else if (current !== role) {
          events.push({ type: 'SpaceUserPermissionSet', data: { spaceId: command.spaceId, userId, role, at } });
        }
      }
      return events;
    }
  }
}

function assertLive(state: SpaceState): void {
  if (!state.exists || state.deletedAt) throw notFound('Space not found');
}

/** Characters are code points (as zod counts them at the edge): an emoji is one, not two. */
const codePoints = (text: string): number => [...text].length;

function assertTitle(title: string): void {
  if (codePoints(title) > SPACE_TITLE_MAX) throw badRequest(`A space title has at most ${SPACE_TITLE_MAX} characters`);
}

/** The creator administers what they create (as organizations do). */
function creatorGrant(spaceId: string, userId: string, at: string): SpaceEvent {
  return { type: 'SpaceUserPermissionSet', data: { spaceId, userId, role: 'admin', at } };
}

/** "Copy of <title>", cut to the title limit without splitting a character. */
export function copyTitle(title: string): string {
  return [...`Copy of ${title}`].slice(0, SPACE_TITLE_MAX).join('');
}

/** A space shows an emoji or an icon, not both: setting one clears the other. */
function oneIcon(changes: SpaceChanges): SpaceChanges {
  if (typeof changes.emoji === 'string' && typeof changes.icon === 'string') throw badRequest('Set either an emoji or an icon, not both');
  if (typeof changes.emoji === 'string') return { ...changes, icon: null };
  if (typeof changes.icon === 'string') return { ...changes, emoji: null };
  return changes;
}

function changedSettings(state: SpaceState, changes: SpaceChanges): SpaceChanges {
  const out: SpaceChanges = {};
  if (changes.title !== undefined && changes.title !== state.title) out.title = changes.title;
  if (changes.emoji !== undefined && (changes.emoji ?? undefined) !== state.emoji) out.emoji = changes.emoji;
  if (changes.icon !== undefined && (changes.icon ?? undefined) !== state.icon) out.icon = changes.icon;
  if (changes.editMode !== undefined && changes.editMode !== state.editMode) out.editMode = changes.editMode;
  if (changes.language !== undefined && changes.language !== state.language) out.language = changes.language;
  if (changes.defaultLevel !== undefined && changes.defaultLevel !== state.defaultLevel) out.defaultLevel = changes.defaultLevel as DefaultLevel;
  if (changes.mergeRules !== undefined && JSON.stringify(changes.mergeRules) !== JSON.stringify(state.mergeRules)) {
    out.mergeRules = changes.mergeRules as MergeRulesConfiguration;
  }
  // Never set is not the same as `private` (a collection space shows in-collection until set).
  if (changes.visibility !== undefined && changes.visibility !== state.visibility) out.visibility = changes.visibility;
  return out;
}

/** The last word for a user wins when one request names them twice. */
function dedupe<T extends { userId: string }>(grants: T[]): T[] {
  return [...new Map(grants.map((g) => [g.userId, g])).values()];
}
