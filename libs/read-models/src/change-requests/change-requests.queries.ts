import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';
import type { ChangeRequestStatus } from '@quire/domain';
import type { UserRow } from '../identity/identity.queries';
import { effectiveRankSql } from '../permissions/access.sql';

export interface ChangeRequestRow {
  id: string;
  space_id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description: unknown | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  merged_by: string | null;
  merged_at: Date | null;
  revision: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  contributors: string[];
  comments: number;
  /** The space's live revision differs from the base (never for a merged change request). */
  outdated: boolean;
  creator: UserRow | null;
  merger: UserRow | null;
}

export interface ChangeRequestFilters {
  status?: ChangeRequestStatus;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  orderBy: 'updatedAt' | 'createdAt';
  page?: string;
  limit: number;
}

/** GitBook's listChangeRequestsForOrganization filters. */
export interface OrganizationChangeRequestFilters extends Omit<ChangeRequestFilters, 'status'> {
  statuses: ChangeRequestStatus[];
  space?: string;
}

const SELECT = `
  SELECT c.*, row_to_json(cu) AS creator, row_to_json(mu) AS merger,
         (c.status <> 'merged' AND s.revision IS DISTINCT FROM coalesce(c.revision_merged_ancestor, c.revision_initial)) AS outdated
    FROM rm_change_requests c
    LEFT JOIN rm_spaces s ON s.id = c.space_id
    LEFT JOIN rm_users cu ON cu.id = c.created_by
    LEFT JOIN rm_users mu ON mu.id = c.merged_by`;

export class ChangeRequestQueries {
  constructor(private readonly db: Queryable) {}

  /** By id, or by its per-space number (GitBook's `changeRequestId` accepts both). */
  async byIdOrNumber(spaceId: string, key: string): Promise<ChangeRequestRow | undefined> {
    const byNumber = /^\d{1,9}$/.test(key);
    const r = await this.db.query<ChangeRequestRow>(`${SELECT} WHERE c.space_id = $1 AND ${byNumber ? 'c.number = $2::int' : 'c.id = $2'}`, [spaceId, key]);
    return r.rows[0] ? withDates(r.rows[0]) : undefined;
  }

  /** Just the id and head revision, for content reads (one indexed lookup, no joins). */
  async head(spaceId: string, key: string): Promise<{ id: string; revision: string } | undefined> {
    const byNumber = /^\d{1,9}$/.test(key);
    const r = await this.db.query<{ id: string; revision: string }>(
      `SELECT id, revision FROM rm_change_requests WHERE space_id = $1 AND ${byNumber ? 'number = $2::int' : 'id = $2'}`,
      [spaceId, key],
    );
    return r.rows[0];
  }

  /** Newest first by `orderBy`, keyset-paginated on (timestamp, id). */
  async list(spaceId: string, f: ChangeRequestFilters): Promise<ListResponse<ChangeRequestRow>> {
    const column = f.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
    const after = decodeCursor(f.page, timeIdCursor);
    const r = await this.db.query<ChangeRequestRow>(
      `${SELECT}
        WHERE c.space_id = $1
          AND ($2::text IS NULL OR c.status = $2)
          AND ($3::text IS NULL OR c.created_by = $3)
          AND ($4::text IS NULL OR $4 = ANY(c.contributors))
          AND ($5::text IS NULL OR $5 = ANY(c.requested_reviewers))
          AND ($6::timestamptz IS NULL OR (c.${column}, c.id) < ($6::timestamptz, $7::text))
        ORDER BY c.${column} DESC, c.id DESC
        LIMIT $8`,
      [spaceId, f.status ?? null, f.creator ?? null, f.contributor ?? null, f.requestedReviewer ?? null, after?.[0] ?? null, after?.[1] ?? null, f.limit + 1],
    );
    return toPage(
      r.rows.map(withDates),
      f.limit,
      (row) => row,
      (row) => [new Date(f.orderBy === 'createdAt' ? row.created_at : row.updated_at).toISOString(), row.id],
    );
  }
}

export class OrganizationChangeRequestQueries {
  constructor(private readonly db: Queryable) {}

  /**
   * The change requests of an organization's live spaces that the caller can read (the same
   * effective role as everywhere, in SQL), newest first by `orderBy`, keyset-paginated.
   */
  async list(organizationId: string, caller: { userId: string; instanceAdmin: boolean }, f: OrganizationChangeRequestFilters): Promise<ListResponse<ChangeRequestRow>> {
    const column = f.orderBy === 'createdAt' ? 'created_at' : 'updated_at';
    const after = decodeCursor(f.page, timeIdCursor);
    const r = await this.db.query<ChangeRequestRow>(
      `${SELECT}
         JOIN rm_access_nodes n ON n.id = s.id
         LEFT JOIN rm_organization_members m ON m.organization_id = s.organization_id AND m.user_id = $2
        WHERE s.organization_id = $1 AND s.deleted_at IS NULL
          AND ${effectiveRankSql('n', 'm', '$2', '$3')} > 0
          AND c.status = ANY($4::text[])
          AND ($5::text IS NULL OR c.created_by = $5)
          AND ($6::text IS NULL OR $6 = ANY(c.contributors))
          AND ($7::text IS NULL OR $7 = ANY(c.requested_reviewers))
          AND ($8::text IS NULL OR c.space_id = $8)
          AND ($9::timestamptz IS NULL OR (c.${column}, c.id) < ($9::timestamptz, $10::text))
        ORDER BY c.${column} DESC, c.id DESC
        LIMIT $11`,
      [
        organizationId,
        caller.userId,
        caller.instanceAdmin,
        f.statuses,
        f.creator ?? null,
        f.contributor ?? null,
        f.requestedReviewer ?? null,
        f.space ?? null,
        after?.[0] ?? null,
        after?.[1] ?? null,
        f.limit + 1,
      ],
    );
    return toPage(
      r.rows.map(withDates),
      f.limit,
      (row) => row,
      (row) => [new Date(f.orderBy === 'createdAt' ? row.created_at : row.updated_at).toISOString(), row.id],
    );
  }
}

function withDates(row: ChangeRequestRow): ChangeRequestRow {
  const user = (u: any): UserRow | null => (u ? { ...u, created_at: new Date(u.created_at) } : null);
  return { ...row, creator: user(row.creator), merger: user(row.merger) };
}
