import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';
import type { ChangeRequestReviewStatus } from '@quire/domain';
import type { UserRow } from '../identity/identity.queries';

export interface ReviewRow {
  id: string;
  change_request_id: string;
  space_id: string;
  status: ChangeRequestReviewStatus;
  revision: string;
  comment_id: string | null;
  created_at: Date;
  /** Superseded, or made against an earlier head of the change request. */
  outdated: boolean;
  reviewer: UserRow | null;
  reviewer_id: string;
  requester: UserRow | null;
  requested_by: string | null;
}

export interface RequestedReviewerRow {
  user_id: string;
  requested_by: string;
  revision: string;
  created_at: Date;
  user: UserRow | null;
  requester: UserRow | null;
}

const REVIEW = `
  SELECT r.id, r.change_request_id, r.space_id, r.status, r.revision, r.comment_id, r.created_at,
         r.reviewer AS reviewer_id, r.requested_by,
         (r.superseded OR r.revision IS DISTINCT FROM c.revision) AS outdated,
         row_to_json(ru) AS reviewer, row_to_json(qu) AS requester
    FROM rm_change_request_reviews r
    LEFT JOIN rm_change_requests c ON c.id = r.change_request_id
    LEFT JOIN rm_users ru ON ru.id = r.reviewer
    LEFT JOIN rm_users qu ON qu.id = r.requested_by`;

export class ChangeRequestReviewQueries {
  constructor(private readonly db: Queryable) {}

  async review(changeRequestId: string, reviewId: string): Promise<ReviewRow | undefined> {
    const r = await this.db.query<ReviewRow>(`${REVIEW} WHERE r.change_request_id = $1 AND r.id = $2`, [changeRequestId, reviewId]);
    return r.rows[0];
  }

  /** Newest first; `outdated` filters on it when given. */
  async reviews(changeRequestId: string, f: { outdated?: boolean; page?: string; limit: number }): Promise<ListResponse<ReviewRow>> {
    const after = decodeCursor(f.page, timeIdCursor);
    const r = await this.db.query<ReviewRow>(
      `SELECT * FROM (${REVIEW} WHERE r.change_request_id = $1) x
        WHERE ($2::boolean IS NULL OR x.outdated = $2)
          AND ($3::timestamptz IS NULL OR (x.created_at, x.id) < ($3::timestamptz, $4::text))
        ORDER BY x.created_at DESC, x.id DESC
        LIMIT $5`,
      [changeRequestId, f.outdated ?? null, after?.[0] ?? null, after?.[1] ?? null, f.limit + 1],
    );
    return toPage(r.rows, f.limit, (row) => row, (row) => [new Date(row.created_at).toISOString(), row.id]);
  }

  /** In the order they were asked (those asked together by user id). */
  async requestedReviewers(changeRequestId: string, f: { page?: string; limit: number; users?: readonly string[] }): Promise<ListResponse<RequestedReviewerRow>> {
    const after = decodeCursor(f.page, timeIdCursor);
    const r = await this.db.query<RequestedReviewerRow>(
      `SELECT q.user_id, q.requested_by, q.revision, q.created_at, row_to_json(u) AS user, row_to_json(qu) AS requester
         FROM rm_change_request_reviewers q
         LEFT JOIN rm_users u ON u.id = q.user_id
         LEFT JOIN rm_users qu ON qu.id = q.requested_by
        WHERE q.change_request_id = $1
          AND ($2::text[] IS NULL OR q.user_id = ANY($2::text[]))
          AND ($3::timestamptz IS NULL OR (q.created_at, q.user_id) > ($3::timestamptz, $4::text))
        ORDER BY q.created_at, q.user_id
        LIMIT $5`,
      [changeRequestId, f.users ?? null, after?.[0] ?? null, after?.[1] ?? null, f.limit + 1],
    );
    return toPage(r.rows, f.limit, (row) => row, (row) => [new Date(row.created_at).toISOString(), row.user_id]);
  }
}
