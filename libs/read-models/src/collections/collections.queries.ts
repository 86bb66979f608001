import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';
import { Role } from '@quire/domain';
import { effectiveRankSql, rankRole } from '../permissions/access.sql';
import type { ListCaller } from '../spaces/spaces.queries';

export interface CollectionRow {
  id: string;
  organization_id: string;
  parent: string | null;
  depth: number;
  title: string;
  description: string | null;
  default_level: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

export interface VisibleCollection {
  collection: CollectionRow;
  role: Role;
}

export class CollectionQueries {
  constructor(private readonly db: Queryable) {}

  async collection(id: string): Promise<CollectionRow | undefined> {
    return (await this.db.query<CollectionRow>(`SELECT * FROM rm_collections WHERE id = $1`, [id])).rows[0];
  }

  /** Collections of an organization the caller can read, oldest first; `nested: false` keeps top-level ones. */
  async inOrganization(
    organizationId: string,
    caller: ListCaller,
    opts: { page?: string; limit: number; nested: boolean },
  ): Promise<ListResponse<VisibleCollection>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    const r = await this.db.query<CollectionRow & { role_rank: number }>(
      `SELECT c.*, r.rank AS role_rank
         FROM rm_collections c
         JOIN rm_access_nodes n ON n.id = c.id
         LEFT JOIN rm_organization_members m ON m.organization_id = c.organization_id AND m.user_id = $2
         CROSS JOIN LATERAL (SELECT ${effectiveRankSql('n', 'm', '$2', '$3')} AS rank) r
        WHERE c.organization_id = $1 AND r.rank > 0 AND ($4::boolean OR c.parent IS NULL)
          AND ($5::timestamptz IS NULL OR (c.created_at, c.id) > ($5::timestamptz, $6::text))
        ORDER BY c.created_at, c.id
        LIMIT $7`,
      [organizationId, caller.userId, caller.instanceAdmin, opts.nested, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
    );
    return toPage(
      r.rows,
      opts.limit,
      (row) => ({ collection: row, role: rankRole(row.role_rank)! }),
      (row) => [new Date(row.created_at).toISOString(), row.id],
    );
  }
}
