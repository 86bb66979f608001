import { Injectable } from '@nestjs/common';
import { badRequest, collectionStream, decodeLevel, DomainError, effectiveRole, isRole, notFound, Role, roleAtLeast } from '@quire/domain';
import { IdentityQueries, OrganizationRow } from '@quire/read-models/identity/identity.queries';
import { AccessFactsRow, AccessQueries, CollectionAccessRow, SpaceAccessRow } from '@quire/read-models/permissions/permissions.queries';
import { ALL_TAGS, idsNamedBy, ReadCache, ReadCacheFollower } from '@quire/projections/read-cache';
import { Caller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { MaybePromise, thenMaybe } from '@quire/platform/maybe-promise';

/** A space and the caller's role on it. */
export interface SpaceAccess {
  space: SpaceAccessRow;
  role: Role;
}

/**
 * The one place that answers "may this caller do this?" for organizations, collections and
 * spaces (docs/permissions.md has the table). Every check reads the resource and the caller's
 * access facts in a single query, then applies `effectiveRole` from the domain:
 * - 404 when the caller cannot see the resource (no role at all), so its existence is not revealed;
 * - 403 when they can see it but their role is below what the operation needs.
 * A site token (Caller.site) reads the spaces its site publishes, while it publishes them, and
 * nothing else: no organization, collection or write.
 */
@Injectable()
export class AccessService {
  /**
   * A space and a user's access facts, by space and user: the hottest read of all. Evicted by
   * any event naming the space, its organization (memberships) or the user; a collection's event
   * (its default level, grants, its place in the tree) may change every space below it, which the
   * row does not list: it evicts them all.
   */
  private readonly spaces: ReadCache<SpaceAccessRow>;

  constructor(
    private readonly access: AccessQueries,
    private readonly identity: IdentityQueries,
    readCaches: ReadCacheFollower,
  ) {
    this.spaces = new ReadCache<SpaceAccessRow>(
      {
        name: 'space-access',
        max: 50_000,
        readModels: ['spaces', 'permissions', 'identity'],
        tagsOf: (event) => (event.streamId.startsWith(collectionStream('')) ? ALL_TAGS : idsNamedBy(event)),
      },
      readCaches,
    );
  }

  /** The space with the user's access facts; a warm read (kept in the cache) makes no promise. */
  private spaceWithFacts(spaceId: string, userId: string): MaybePromise<SpaceAccessRow | undefined> {
    const key = `${spaceId} ${userId}`;
    return this.spaces.cached(key) ?? this.spaces.get(key, async () => {
      const space = await this.access.space(spaceId, userId);
      return space && { value: space, tags: [space.id, space.organization_id, userId] };
    });
  }

  /**
   * The space and the caller's role on it. Deleted spaces are invisible unless `deleted: true`
   * (delete and restore act on them); `sharedWith` grants read to a caller without a role.
   * Answered without a promise when the row is kept (it may then throw at once): callers await it.
   */
  spaceAccess(
    caller: Caller,
    spaceId: string,
    needed: Role = 'read',
    opts: { deleted?: boolean; sharedWith?: (space: SpaceAccessRow) => boolean } = {},
  ): MaybePromise<SpaceAccess> {
    parseInput(entityId, spaceId, 'spaceId');
    if (caller.site) return this.publishedSpaceAccess(caller, spaceId, needed);
    // Warm (the row kept), answered without a promise: every read of a space's content starts here.
    return thenMaybe(this.spaceWithFacts(spaceId, caller.user.id), (space) => this.spaceRole(caller, space, needed, opts));
  }

  private spaceRole(caller: Caller, space: SpaceAccessRow | undefined, needed: Role, opts: { deleted?: boolean; sharedWith?: (space: SpaceAccessRow) => boolean }): SpaceAccess {
    // A share link (opts.sharedWith: the request holds the space's share key) lets anyone read.
    const role = space ? (this.roleOf(caller, space) ?? (opts.sharedWith?.(space) ? 'read' : null)) : null;
    if (!space || !role || (space.deleted_at && !opts.deleted)) throw notFound('Space not found');
    if (!roleAtLeast(role, needed)) throw insufficient('space', needed);
    return { space, role };
  }

  async collectionAccess(caller: Caller, collectionId: string, needed: Role = 'read'): Promise<{ collection: CollectionAccessRow; role: Role }> {
    parseInput(entityId, collectionId, 'collectionId');
    if (caller.site) throw siteTokenRefused();
    const collection = await this.access.collection(collectionId, caller.user.id);
    const role = collection ? this.roleOf(caller, collection) : null;
    if (!collection || !role) throw notFound('Collection not found');
    if (!roleAtLeast(role, needed)) throw insufficient('collection', needed);
    return { collection, role };
  }

  /** Members (and the instance admin) see their organization; others get 404. */
  async organizationAccess(caller: Caller, organizationId: string, needed: Role = 'read'): Promise<{ organization: OrganizationRow; role: Role }> {
    parseInput(entityId, organizationId, 'organizationId');
    if (caller.site) throw siteTokenRefused();
    const organization = await this.identity.organization(organizationId);
    const memberRole = organization ? await this.identity.memberRole(organizationId, caller.user.id) : undefined;
    const role: Role | null = caller.instanceAdmin ? 'admin' : isRole(memberRole) ? memberRole : null;
    if (!organization || !role) throw notFound('Organization not found');
    if (!roleAtLeast(role, needed)) throw insufficient('organization', needed);
    return { organization, role };
  }

  /**
   * A parent collection named in a request body: one the caller cannot see is bad input (400,
   * as if it did not exist); one they see without the create role is 403.
   */
  async parentCollection(caller: Caller, collectionId: string): Promise<CollectionAccessRow> {
    parseInput(entityId, collectionId, 'body.parent');
    const collection = await this.access.collection(collectionId, caller.user.id);
    const role = collection ? this.roleOf(caller, collection) : null;
    if (!collection || !role) throw badRequest('Invalid body: parent: no such collection');
    if (!roleAtLeast(role, 'create')) throw insufficient('parent collection', 'create');
    return collection;
  }

  /**
   * Where a new space or collection goes, and whether the caller may put it there: with a
   * `parent`, the create role on that collection (what `permissions.create` shows, and what
   * duplicating needs), whether or not they are a member of the organization; without one, the
   * create role in the organization. A guest who cannot use the parent learns nothing about the
   * organization (404), as a member asking about another organization's collection gets 400.
   */
  async creationParent(caller: Caller, organizationId: string, parentId: string | undefined, what: 'space' | 'collection'): Promise<CollectionAccessRow | undefined> {
    if (!parentId) {
      const { role } = await this.organizationAccess(caller, organizationId);
      if (!roleAtLeast(role, 'create')) throw new DomainError('forbidden', `Creating a ${what} requires the create role in the organization`);
      return undefined;
    }
    parseInput(entityId, organizationId, 'organizationId');
    const organization = await this.identity.organization(organizationId);
    if (!organization) throw notFound('Organization not found');
    const member = caller.instanceAdmin || isRole(await this.identity.memberRole(organizationId, caller.user.id));
    if (member) return this.parentCollection(caller, parentId);
    parseInput(entityId, parentId, 'body.parent');
    const collection = await this.access.collection(parentId, caller.user.id);
    const role = collection ? this.roleOf(caller, collection) : null;
    if (!collection || !role || collection.organization_id !== organizationId) throw notFound('Organization not found');
    if (!roleAtLeast(role, 'create')) throw insufficient('parent collection', 'create');
    return collection;
  }

  /**
   * A site token reads a space while its site publishes it (AuthGuard narrowed `spaces` to
   * those): read-only, and a space outside its site does not exist for it.
   */
  private publishedSpaceAccess(caller: Caller, spaceId: string, needed: Role): MaybePromise<SpaceAccess> {
    if (!caller.site!.spaces.includes(spaceId)) throw notFound('Space not found');
    return thenMaybe(this.spaceWithFacts(spaceId, caller.user.id), (space) => publishedRead(space, needed));
  }

  /**
   * The caller's effective role from the facts read with a space or collection. A site token
   * reads: it only reaches routes about a space its site publishes, which AuthGuard checked.
   */
  roleOf(caller: Caller, facts: AccessFactsRow): Role | null {
    if (caller.site) return 'read';
    return effectiveRole({
      instanceAdmin: caller.instanceAdmin,
      organizationRole: isRole(facts.organization_role) ? facts.organization_role : null,
      levels: [decodeLevel(facts.resolved_level)],
      grants: [isRole(facts.granted_role) ? facts.granted_role : null],
    });
  }
}

function publishedRead(space: SpaceAccessRow | undefined, needed: Role): SpaceAccess {
  if (!space || space.deleted_at) throw notFound('Space not found');
  if (!roleAtLeast('read', needed)) throw siteTokenRefused();
  return { space, role: 'read' };
}

function siteTokenRefused(): DomainError {
  return new DomainError('forbidden', "A site token only reads its site's published content");
}

function insufficient(what: string, needed: Role): DomainError {
  return new DomainError('forbidden', `This requires the ${needed} role on the ${what}`);
}
