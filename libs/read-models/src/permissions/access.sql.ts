import { Role } from '@quire/domain';

/**
 * Roles by rank, weakest first, so `array_position(ROLE_RANKS, role)` is 1 (read) .. 6 (admin)
 * and 0/NULL means no access: the same order as `roleAtLeast` in the domain.
 */
export const ROLE_RANKS_SQL = `ARRAY['read','comment','edit','review','create','admin']::text[]`;
const RANKED: Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

export const roleRank = (role: Role): number => RANKED.indexOf(role) + 1;
export const rankRole = (rank: number | null | undefined): Role | null => (rank && rank > 0 ? RANKED[rank - 1] : null);

/**
 * SQL for what an organization member gets by membership on node `n` (alias), given their
 * membership row `m` (alias; NULL when not a member): the same rule as `membershipRole` in
 * `@quire/domain`, admins stay admin, otherwise the resolved default level or their own role.
 */
export function membershipRankSql(n: string, m: string): string {
  return `CASE WHEN ${m}.role IS NULL THEN 0
               WHEN ${m}.role = 'admin' THEN 6
               WHEN ${n}.resolved_level = 'inherit' THEN array_position(${ROLE_RANKS_SQL}, ${m}.role)
               WHEN ${n}.resolved_level = 'none' THEN 0
               ELSE array_position(${ROLE_RANKS_SQL}, ${n}.resolved_level) END`;
}

/**
 * SQL for one user's effective role rank on node `n` (0 = none): the strongest of membership and
 * explicit grants along the chain, as `effectiveRole` in `@quire/domain`. `userParam` and
 * `instanceAdminParam` are placeholders (e.g. `$2`, `$3`).
 */
export function effectiveRankSql(n: string, m: string, userParam: string, instanceAdminParam: string): string {
  return `CASE WHEN ${instanceAdminParam}::boolean THEN 6 ELSE greatest(
            ${membershipRankSql(n, m)},
            coalesce((SELECT max(array_position(${ROLE_RANKS_SQL}, g.role)) FROM rm_permission_grants g
                       WHERE g.resource_id = ANY(${n}.chain) AND g.user_id = ${userParam}), 0)) END`;
}
