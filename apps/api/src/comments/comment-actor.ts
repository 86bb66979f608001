import { CommentActor, Role, spacePermissions } from '@quire/domain';
import { SpaceAccessRow } from '@quire/read-models/permissions/permissions.queries';
import { Caller } from '../http/auth';

/** What the caller may do with comments on a space where they hold `role`. */
export function commentActor(caller: Caller, space: Pick<SpaceAccessRow, 'edit_mode'>, role: Role): CommentActor {
  const permissions = spacePermissions(role, space.edit_mode);
  return { actorId: caller.user.id, canComment: permissions.comment, isAdmin: permissions.admin };
}
