import { Injectable } from '@nestjs/common';
import { DomainError, notFound, Role, roleAtLeast, spacePermissions } from '@quire/domain';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { AccessQueries } from '@quire/read-models/permissions/permissions.queries';
import { ChangeRequestQueries, ChangeRequestRow } from '@quire/read-models/change-requests/change-requests.queries';
import { SpaceAccessRow } from '@quire/read-models/permissions/permissions.queries';
import { ReadCache, ReadCacheFollower } from '@quire/projections/read-cache';
import { Caller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';

/** What an operation on change requests needs on their space (docs/permissions.md). */
export type ChangeRequestRight = 'read' | 'comment' | 'review' | 'edit' | 'merge';

/**
 * Access to a space's change requests: 404 when the caller cannot see the space, 403 when
 * their role (or a locked space) does not allow the operation, then 404 for an unknown
 * change request (by id or per-space number).
 */
@Injectable()
export class ChangeRequestAccess {
  /**
   * Which revision is a change request's head, by space and id or number: the pointer every read
   * of its content starts from. Every event that moves it names the change request, and a
   * command answers only once every API process has evicted what its events name.
   */
  private readonly heads: ReadCache<{ id: string; revision: string }>;

  constructor(
    private readonly access: AccessService,
    private readonly changeRequests: ChangeRequestQueries,
    private readonly accessFacts: AccessQueries,
    private readonly identity: IdentityQueries,
    readCaches: ReadCacheFollower,
  ) {
    this.heads = new ReadCache({ name: 'change-request-heads', max: 20_000, readModels: ['change-requests'] }, readCaches);
  }

  async space(caller: Caller, spaceId: string, right: ChangeRequestRight): Promise<{ space: SpaceAccessRow; role: Role }> {
    const { space, role } = await this.access.spaceAccess(caller, spaceId, 'read');
    const permissions = spacePermissions(role, space.edit_mode);
    if (right === 'edit' && !permissions.edit) {
      throw new DomainError('forbidden', space.edit_mode === 'locked' ? 'The space is locked: it takes no edits' : 'This requires the edit role on the space');
    }
    if (right === 'comment' && !permissions.comment) throw new DomainError('forbidden', 'This requires the comment role on the space');
    if (right === 'review' && !permissions.review) throw new DomainError('forbidden', 'Reviewing requires the review role on the space');
    if (right === 'merge' && !permissions.merge) {
      throw new DomainError('forbidden', space.edit_mode === 'locked' ? 'The space is locked: nothing can be merged into it' : 'Merging requires the review role on the space');
    }
    return { space, role };
  }

  async changeRequest(caller: Caller, spaceId: string, key: string, right: ChangeRequestRight): Promise<{ space: SpaceAccessRow; role: Role; row: ChangeRequestRow }> {
    const { space, role } = await this.space(caller, spaceId, right);
    parseInput(entityId, key, 'changeRequestId');
    const row = await this.changeRequests.byIdOrNumber(spaceId, key);
    if (!row) throw notFound('Change request not found');
    return { space, role, row };
  }

  /** For content reads: the change request's id and head revision only. */
  async head(caller: Caller, spaceId: string, key: string): Promise<{ id: string; revision: string }> {
    await this.space(caller, spaceId, 'read');
    parseInput(entityId, key, 'changeRequestId');
    const head = await this.heads.get(`${spaceId} ${key}`, async () => {
      const found = await this.changeRequests.head(spaceId, key);
      return found && { value: found, tags: [found.id] };
    });
    if (!head) throw notFound('Change request not found');
    return head;
  }

  /** Whether another user exists (undefined when not) and holds the review role on the space. */
  async canReview(spaceId: string, userId: string): Promise<boolean | undefined> {
    const user = await this.identity.user(userId);
    if (!user) return undefined;
    const facts = await this.accessFacts.space(spaceId, userId);
    return !!facts && roleAtLeast(this.access.roleOf({ user, instanceAdmin: user.instance_admin }, facts), 'review');
  }

  /** The change request as the read models have it now. */
  async reload(spaceId: string, changeRequestId: string): Promise<ChangeRequestRow> {
    const row = await this.changeRequests.byIdOrNumber(spaceId, changeRequestId);
    if (!row) throw notFound('Change request not found');
    return row;
  }
}
