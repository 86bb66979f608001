import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, idCursor, ListResponse, toPage } from '@quire/platform/http/pagination';
import { Role } from '@quire/domain';
import type { UserRow } from '../identity/identity.queries';
import type { SpaceRow } from '../spaces/spaces.queries';
import type { CollectionRow } from '../collections/collections.queries';
import { membershipRankSql, rankRole, ROLE_RANKS_SQL, roleRank } from './access.sql';

/** What decides a user's role on one node, read in the same statement as the node itself. */
export interface AccessFactsRow {
  /** The user's role in the organization; null when not a member. */
  organization_role: Role | null;
  /** The first default level along the chain that does not inherit ('inherit' when none, 'none' for no access). */
  resolved_level: string;
  /** The strongest explicit grant to the user along the chain. */
  granted_role: Role | null;
}

export type SpaceAccessRow = SpaceRow & AccessFactsRow;
export type CollectionAccessRow = CollectionRow & AccessFactsRow;

export interface UserPermission {
  permission: Role;
  user: UserRow;
}

export class AccessQueries {
  constructor(private readonly db: Queryable) {}

  /** A space (deleted or not) and the facts of `userId`'s access to it, in one call (see access.functions.ts). */
  async space(spaceId: string, userId: string): Promise<SpaceAccessRow | undefined> {
    const r = await this.db.query<{ space: any } & AccessFactsRow & Pick<SpaceRow, 'organization_hostname' | 'organization_custom_hostname'>>(
      `SELECT * FROM quire_space_access($1, $2)`,
      [spaceId, userId],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    const { space, ...facts } = row;
    return { ...space, ...dates(space, ['created_at', 'updated_at', 'deleted_at']), ...facts };
  }

  /** A collection and the facts of `userId`'s access to it, in one call (see access.functions.ts). */
  async collection(collectionId: string, userId: string): Promise<CollectionAccessRow | undefined> {
    const r = await this.db.query<{ collection: any } & AccessFactsRow>(`SELECT * FROM quire_collection_access($1, $2)`, [collectionId, userId]);
    const row = r.rows[0];
    if (!row) return undefined;
    const { collection, ...facts } = row;
    return { ...collection, ...dates(collection, ['created_at', 'updated_at']), ...facts };
  }

  /**
   * Every user with access to a space or collection and their effective role, by user id, in
   * one statement: each member of the organization once (membership through the resolved
   * default level, raised by their strongest grant along the chain), plus guests who only have
   * grants. Members are never aggregated (one row each), so the cost is a scan of the
   * membership and a top-N sort; users are joined for the page only.
   */
  async aggregate(nodeId: string, opts: { page?: string; limit: number; role?: Role }): Promise<ListResponse<UserPermission>> {
    const after = decodeCursor(opts.page, idCursor);
    const r = await this.db.query<UserRow & { role_rank: number }>(
      `WITH n AS MATERIALIZED (SELECT organization_id, chain, resolved_level FROM rm_access_nodes WHERE id = $1),
       g AS MATERIALIZED (
         SELECT gr.user_id, max(array_position(${ROLE_RANKS_SQL}, gr.role)) AS rank
           FROM n JOIN rm_permission_grants gr ON gr.resource_id = ANY(n.chain) GROUP BY gr.user_id),
       candidates AS (
         SELECT m.user_id, greatest(${membershipRankSql('n', 'm')}, coalesce(g.rank, 0)) AS rank
           FROM n JOIN rm_organization_members m ON m.organization_id = n.organization_id
           LEFT JOIN g ON g.user_id = m.user_id
          WHERE $2::text IS NULL OR m.user_id > $2
         UNION ALL
         SELECT g.user_id, g.rank FROM g, n
          WHERE ($2::text IS NULL OR g.user_id > $2)
            AND NOT EXISTS (SELECT 1 FROM rm_organization_members m WHERE m.organization_id = n.organization_id AND m.user_id = g.user_id)),
       page AS (
         SELECT user_id, rank FROM candidates
          WHERE rank > 0 AND ($3::int IS NULL OR rank = $3)
          ORDER BY user_id LIMIT $4)
       SELECT u.*, page.rank AS role_rank FROM page JOIN rm_users u ON u.id = page.user_id ORDER BY page.user_id`,
      [nodeId, after?.[0] ?? null, opts.role ? roleRank(opts.role) : null, opts.limit + 1],
    );
    return toPage(
      r.rows,
      opts.limit,
      ({ role_rank, ...user }) => ({ permission: rankRole(role_rank)!, user: user as UserRow }),
      (row) => [row.id],
    );
  }

  /** Users explicitly granted a role on this space or collection itself (not inherited), by user id. */
  async grants(resourceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<UserPermission>> {
    const after = decodeCursor(opts.page, idCursor);
    const r = await this.db.query<UserRow & { grant_role: Role }>(
      `SELECT u.*, g.role AS grant_role FROM rm_permission_grants g JOIN rm_users u ON u.id = g.user_id
        WHERE g.resource_id = $1 AND ($2::text IS NULL OR g.user_id > $2)
        ORDER BY g.user_id LIMIT $3`,
      [resourceId, after?.[0] ?? null, opts.limit + 1],
    );
    return toPage(r.rows, opts.limit, ({ grant_role, ...user }) => ({ permission: grant_role, user: user as UserRow }), (row) => [row.id]);
  }

  /** Which of these user ids exist. */
  async existingUsers(ids: readonly string[]): Promise<Set<string>> {
    const r = await this.db.query<{ id: string }>(`SELECT id FROM rm_users WHERE id = ANY($1::text[])`, [ids]);
    return new Set(r.rows.map((x) => x.id));
  }
}

/** Timestamps come back as text inside jsonb; rows elsewhere carry Dates. */
function dates(row: Record<string, any>, columns: string[]): Record<string, Date | null> {
  const out: Record<string, Date | null> = {};
  for (const c of columns) out[c] = row[c] ? new Date(row[c]) : null;
  return out;
}
