import { Role, roleAtLeast, strongestRole } from '../shared/roles';
import { DefaultLevel, SpaceEditMode } from './space.settings';

/** What decides one user's role on a space or collection. */
export interface AccessFacts {
  /** The instance administrator is admin everywhere. */
  instanceAdmin?: boolean;
  /** The user's role in the content's organization; null when not a member (a guest). */
  organizationRole: Role | null;
  /** Default levels along the chain, nearest first: the content itself, then its enclosing collections. */
  levels: readonly DefaultLevel[];
  /** Explicit grants to the user on the content and on each enclosing collection. */
  grants: ReadonlyArray<Role | null | undefined>;
}

/**
 * The level organization members get on a piece of content: the first default level along the
 * chain that is not `inherit`, or, when all inherit, the member's own organization role.
 * Organization admins administer all of the organization's content whatever the levels say.
 */
export function membershipRole(organizationRole: Role | null, levels: readonly DefaultLevel[]): Role | null {
  if (!organizationRole) return null;
  if (organizationRole === 'admin') return 'admin';
  const level = levels.find((l) => l !== 'inherit');
  return level === undefined ? organizationRole : (level as Role | null);
}

/**
 * A user's effective role: the strongest of their explicit grants along the chain (content,
 * enclosing collections) and what membership gives them. A `null` default level takes away only
 * what membership would give; explicit grants still apply, which is how private spaces work.
 */
export function effectiveRole(facts: AccessFacts): Role | null {
  if (facts.instanceAdmin) return 'admin';
  return strongestRole(membershipRole(facts.organizationRole, facts.levels), ...facts.grants);
}

/** GitBook's Space.permissions for a caller with `role` (null: no access). */
export function spacePermissions(role: Role | null, editMode: SpaceEditMode) {
  const admin = roleAtLeast(role, 'admin');
  return {
    view: roleAtLeast(role, 'read'),
    access: roleAtLeast(role, 'read'),
    admin,
    viewInviteLinks: admin,
    // A locked space takes no edits from anyone until an admin sets it live again.
    edit: roleAtLeast(role, 'edit') && editMode !== 'locked',
    triggerGitSync: roleAtLeast(role, 'edit') && editMode !== 'locked',
    comment: roleAtLeast(role, 'comment'),
    merge: roleAtLeast(role, 'review') && editMode !== 'locked',
    review: roleAtLeast(role, 'review'),
    installIntegration: admin,
  };
}

/** GitBook's Collection.permissions for a caller with `role`. */
export function collectionPermissions(role: Role | null) {
  const admin = roleAtLeast(role, 'admin');
  return {
    view: roleAtLeast(role, 'read'),
    admin,
    viewInviteLinks: admin,
    create: roleAtLeast(role, 'create'),
  };
}

/** Default levels as stored in read models: `null` (no access) is the string 'none' there. */
export const encodeLevel = (level: DefaultLevel): string => (level === null ? 'none' : level);
export const decodeLevel = (stored: string | null | undefined): DefaultLevel =>
  stored === 'none' ? null : stored === undefined || stored === null ? 'inherit' : (stored as DefaultLevel);
