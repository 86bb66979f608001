import { DomainEvent } from '../shared/event';
import { Role } from '../shared/roles';
import { DefaultLevel } from '../space/space.settings';

export type CollectionCreated = DomainEvent<
  'CollectionCreated',
  {
    collectionId: string;
    organizationId: string;
    /** The enclosing collection, of the same organization. */
    parent?: string;
    title: string;
    description?: string;
    defaultLevel: DefaultLevel;
    createdBy: string;
    createdAt: string;
  }
>;
export interface CollectionChanges {
  title?: string;
  description?: string;
  defaultLevel?: DefaultLevel;
}
export type CollectionUpdated = DomainEvent<'CollectionUpdated', { collectionId: string; changes: CollectionChanges; at: string }>;
export type CollectionUserPermissionSet = DomainEvent<'CollectionUserPermissionSet', { collectionId: string; userId: string; role: Role; at: string }>;
export type CollectionUserPermissionRemoved = DomainEvent<'CollectionUserPermissionRemoved', { collectionId: string; userId: string; at: string }>;

export type CollectionEvent = CollectionCreated | CollectionUpdated | CollectionUserPermissionSet | CollectionUserPermissionRemoved;

export const collectionStream = (collectionId: string) => `collection-${collectionId}`;
