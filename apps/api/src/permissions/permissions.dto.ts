import { z } from 'zod';
import { ROLES } from '@quire/domain';
import { paginationQuery } from '@quire/platform/http/pagination';
import { entityId } from '../http/validation';

/** GitBook's MemberRoleOrGuest: a role, or null (which removes the user's explicit grant here). */
export const memberRoleOrGuest = z.enum(ROLES).nullable();

/** GitBook's DefaultLevel: a role, null (no access) or 'inherit'. */
export const defaultLevelInput = z.union([z.enum(ROLES), z.null(), z.literal('inherit')]);

/** GitBook's InviteUsersAndTeams. */
export const inviteBody = z
  .object({
    role: memberRoleOrGuest,
    users: z.array(entityId).min(1).max(1000).optional(),
    teams: z.array(z.string().max(100)).min(1).max(1000).optional(),
  })
  .refine((b) => b.users || b.teams, { message: 'users or teams is required' });

export const updateUserPermissionBody = z.object({ role: memberRoleOrGuest });

export const aggregateQuery = z.object({ ...paginationQuery, role: z.enum(ROLES).optional() });
export const listQuery = z.object({ ...paginationQuery });
