import { badRequest, conflict, notFound } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { Role } from '../shared/roles';
import { CollectionChanges, CollectionEvent } from './collection.events';
import { CollectionState } from './collection.state';

export const COLLECTION_TITLE_MAX = 50;
export const COLLECTION_DESCRIPTION_MAX = 100;
/** Nesting deeper than this is refused: every access check walks the chain. */
export const COLLECTION_MAX_DEPTH = 10;
export const DEFAULT_COLLECTION_TITLE = 'Untitled';

export interface CreateCollection {
  type: 'CreateCollection';
  collectionId: string;
  organizationId: string;
  title?: string;
  /** The enclosing collection, its organization and its depth (1 for a top-level one), read by the handler. */
  parent?: { collectionId: string; organizationId: string; depth: number };
  creatorId: string;
}

export interface UpdateCollection {
  type: 'UpdateCollection';
  collectionId: string;
  changes: CollectionChanges;
}

/** Sets (role) or removes (null) users' explicit grants on the collection. */
export interface SetCollectionUserPermissions {
  type: 'SetCollectionUserPermissions';
  collectionId: string;
  grants: Array<{ userId: string; role: Role | null }>;
}

export type CollectionCommand = CreateCollection | UpdateCollection | SetCollectionUserPermissions;

export function decideCollection(command: CollectionCommand, state: CollectionState, ctx: DecideContext): CollectionEvent[] {
  const at = ctx.now.toISOString();
  switch (command.type) {
    case 'CreateCollection': {
      if (state.exists) throw conflict(`Collection ${command.collectionId} already exists`);
      const title = command.title ?? DEFAULT_COLLECTION_TITLE;
      assertTitle(title);
      if (command.parent) {
        if (command.parent.organizationId !== command.organizationId) throw badRequest('The parent collection belongs to another organization');
        if (command.parent.depth >= COLLECTION_MAX_DEPTH) throw badRequest(`Collections nest at most ${COLLECTION_MAX_DEPTH} levels deep`);
      }
      return [
        {
          type: 'CollectionCreated',
          data: {
            collectionId: command.collectionId,
            organizationId: command.organizationId,
            parent: command.parent?.collectionId,
            title,
            defaultLevel: 'inherit',
            createdBy: command.creatorId,
            createdAt: at,
          },
        },
        // The creator administers what they create.
        { type: 'CollectionUserPermissionSet', data: { collectionId: command.collectionId, userId: command.creatorId, role: 'admin', at } },
      ];
    }
    case 'UpdateCollection': {
      if (!state.exists) throw notFound('Collection not found');
      const c = command.changes;
      const changes: CollectionChanges = {};
      if (c.title !== undefined && c.title !== state.title) changes.title = c.title;
      if (c.description !== undefined && c.description !== state.description) changes.description = c.description;
      if (c.defaultLevel !== undefined && c.defaultLevel !== state.defaultLevel) changes.defaultLevel = c.defaultLevel;
      if (changes.title !== undefined) assertTitle(changes.title);
      if (changes.description !== undefined && [...changes.description].length > COLLECTION_DESCRIPTION_MAX) {
        throw badRequest(`A collection description has at most ${COLLECTION_DESCRIPTION_MAX} characters`);
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'CollectionUpdated', data: { collectionId: command.collectionId, changes, at } }];
    }
    case 'SetCollectionUserPermissions': {
      if (!state.exists) throw notFound('Collection not found');
      const events: CollectionEvent[] = [];
      const last = new Map(command.grants.map((g) => [g.userId, g.role]));
      for (const [userId, role] of last) {
        const current = state.grants[userId];
        if (role === null) {
          if (current) events.push({ type: 'CollectionUserPermissionRemoved', data: { collectionId: command.collectionId, userId, at } });
        } else if (current !== role) {
          events.push({ type: 'CollectionUserPermissionSet', data: { collectionId: command.collectionId, userId, role, at } });
        }
      }
      return events;
    }
  }
}

function assertTitle(title: string): void {
  if ([...title].length > COLLECTION_TITLE_MAX) throw badRequest(`A collection title has at most ${COLLECTION_TITLE_MAX} characters`);
}
