import { z } from 'zod';
import { Queryable } from '@quire/platform/db/db';
import { cursorId, cursorTimestamp, decodeCursor, ListResponse, toPage } from '@quire/platform/http/pagination';
import type { UserRow } from '../identity/identity.queries';

export interface ContributorRow {
  user_id: string;
  action_type: 'edit' | 'comment';
  count: number;
  updated_at: Date;
  user: UserRow | null;
}

const contributorCursor = z.tuple([cursorTimestamp, cursorId, z.enum(['comment', 'edit'])]);

export class ChangeRequestContributorQueries {
  constructor(private readonly db: Queryable) {}

  /** The latest contributions first. */
  async contributors(changeRequestId: string, f: { page?: string; limit: number }): Promise<ListResponse<ContributorRow>> {
    const after = decodeCursor(f.page, contributorCursor);
    const r = await this.db.query<ContributorRow>(
      `SELECT c.user_id, c.action_type, c.count, c.updated_at, row_to_json(u) AS user
         FROM rm_change_request_contributors c
         LEFT JOIN rm_users u ON u.id = c.user_id
        WHERE c.change_request_id = $1
          AND ($2::timestamptz IS NULL OR c.updated_at < $2 OR (c.updated_at = $2 AND (c.user_id, c.action_type) > ($3::text, $4::text)))
        ORDER BY c.updated_at DESC, c.user_id, c.action_type
        LIMIT $5`,
      [changeRequestId, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null, f.limit + 1],
    );
    return toPage(r.rows, f.limit, (row) => row, (row) => [new Date(row.updated_at).toISOString(), row.user_id, row.action_type]);
  }
}
