import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';
import { Role } from '@quire/domain';
import { effectiveRankSql, rankRole } from '../permissions/access.sql';

export interface SpaceRow {
  id: string;
  organization_id: string;
  parent: string | null;
  title: string;
  emoji: string | null;
  icon: string | null;
  language: string | null;
  edit_mode: 'live' | 'locked';
  /** Stored default level: 'inherit', a role, or 'none' for no access. */
  default_level: string;
  merge_rules: any;
  /** As set by UpdateSpace ('public', 'unlisted', 'in-collection', 'private'); null when never set. */
  visibility: string | null;
  share_generation: number;
  revision: string;
  initial_revision: string;
  empty: boolean;
  duplicated_from: string | null;
  duplicated_from_revision: string | null;
  git_sync: any | null;
  change_requests: number;
  change_requests_open: number;
  change_requests_draft: number;
  comments: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  /** The owning organization's hostname and custom hostname, for published URLs. */
  organization_hostname: string | null;
  organization_custom_hostname: string | null;
}

/** A space with the role of the user the list was made for. */
export interface VisibleSpace {
  space: SpaceRow;
  role: Role;
}

export interface ListCaller {
  userId: string;
  instanceAdmin: boolean;
}

export class SpaceQueries {
  constructor(private readonly db: Queryable) {}

  /** Live spaces of an organization the caller can read, oldest first. */
  inOrganization(organizationId: string, caller: ListCaller, opts: { page?: string; limit: number }): Promise<ListResponse<VisibleSpace>> {
    return this.list(`s.organization_id = $1`, organizationId, caller, opts);
  }

  /** Live spaces directly in a collection that the caller can read, oldest first. */
  inCollection(collectionId: string, caller: ListCaller, opts: { page?: string; limit: number }): Promise<ListResponse<VisibleSpace>> {
    return this.list(`s.parent = $1`, collectionId, caller, opts);
  }

  private async list(where: string, key: string, caller: ListCaller, opts: { page?: string; limit: number }): Promise<ListResponse<VisibleSpace>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    // One statement: rows walk the (scope, created_at, id) index and stop at the limit.
    const r = await this.db.query<SpaceRow & { role_rank: number }>(
      `SELECT s.*, o.hostname AS organization_hostname, o.custom_hostname AS organization_custom_hostname, r.rank AS role_rank
         FROM rm_spaces s
         JOIN rm_access_nodes n ON n.id = s.id
         JOIN rm_organizations o ON o.id = s.organization_id
         LEFT JOIN rm_organization_members m ON m.organization_id = s.organization_id AND m.user_id = $2
         CROSS JOIN LATERAL (SELECT ${effectiveRankSql('n', 'm', '$2', '$3')} AS rank) r
        WHERE ${where} AND s.deleted_at IS NULL AND r.rank > 0
          AND ($4::timestamptz IS NULL OR (s.created_at, s.id) > ($4::timestamptz, $5::text))
        ORDER BY s.created_at, s.id
        LIMIT $6`,
      [key, caller.userId, caller.instanceAdmin, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
    );
    return toPage(
      r.rows,
      opts.limit,
      (row) => ({ space: row, role: rankRole(row.role_rank)! }),
      (row) => [new Date(row.created_at).toISOString(), row.id],
    );
  }
}
