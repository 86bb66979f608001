import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';
import type { UserRow } from '../identity/identity.queries';

/** Where comments are listed: a space's own comments, or those of one of its change requests. */
export interface CommentScope {
  spaceId: string;
  changeRequestId?: string;
}

export interface ReplierRow {
  user_id: string;
  count: number;
  updated_at: string;
  user: UserRow | null;
}

export interface CommentRow {
  id: string;
  space_id: string;
  change_request_id: string | null;
  review_id: string | null;
  revision: string;
  page_id: string | null;
  node_id: string | null;
  body: unknown;
  posted_by: string;
  posted_at: Date;
  edited_at: Date | null;
  status: 'open' | 'resolved';
  resolved_by: string | null;
  resolved_at: Date | null;
  deleted_at: Date | null;
  replies: number;
  repliers: ReplierRow[];
  poster: UserRow | null;
  resolver: UserRow | null;
}

export interface CommentReplyRow {
  id: string;
  comment_id: string;
  space_id: string;
  change_request_id: string | null;
  body: unknown;
  posted_by: string;
  posted_at: Date;
  edited_at: Date | null;
  poster: UserRow | null;
}

export interface CommentFilters {
  status: 'all' | 'open' | 'resolved';
  targetPage?: string;
  authors?: string[];
  order: 'asc' | 'desc';
  page?: string;
  limit: number;
}

const COMMENT = `
  SELECT c.*, row_to_json(pu) AS poster, row_to_json(ru) AS resolver,
         (SELECT count(*)::int FROM rm_comment_replies r WHERE r.comment_id = c.id AND r.deleted_at IS NULL) AS replies,
         (SELECT coalesce(json_agg(json_build_object('user_id', x.posted_by, 'count', x.n, 'updated_at', x.last, 'user', row_to_json(u)) ORDER BY x.last, x.posted_by), '[]'::json)
            FROM (SELECT posted_by, count(*)::int AS n, max(posted_at) AS last FROM rm_comment_replies r
                   WHERE r.comment_id = c.id AND r.deleted_at IS NULL GROUP BY posted_by) x
            LEFT JOIN rm_users u ON u.id = x.posted_by) AS repliers
    FROM rm_comments c
    LEFT JOIN rm_users pu ON pu.id = c.posted_by
    LEFT JOIN rm_users ru ON ru.id = c.resolved_by`;

const REPLY = `
  SELECT r.id, r.comment_id, r.space_id, r.change_request_id, r.body, r.posted_by, r.posted_at, r.edited_at, row_to_json(pu) AS poster
    FROM rm_comment_replies r
    LEFT JOIN rm_users pu ON pu.id = r.posted_by`;

export class CommentQueries {
  constructor(private readonly db: Queryable) {}

  /** One comment of the scope, deleted ones included (callers decide what a deleted one means). */
  async comment(scope: CommentScope, commentId: string): Promise<CommentRow | undefined> {
    const r = await this.db.query<CommentRow>(`${COMMENT} WHERE c.id = $1 AND c.space_id = $2 AND c.change_request_id IS NOT DISTINCT FROM $3`, [
      commentId,
      scope.spaceId,
      scope.changeRequestId ?? null,
    ]);
    return r.rows[0];
  }

  /** Comments by id, deleted ones left out (the comments of reviews). */
  async byIds(ids: readonly string[]): Promise<Map<string, CommentRow>> {
    if (ids.length === 0) return new Map();
    const r = await this.db.query<CommentRow>(`${COMMENT} WHERE c.id = ANY($1::text[]) AND c.deleted_at IS NULL`, [ids]);
    return new Map(r.rows.map((row) => [row.id, row]));
  }

  /** By posting time (`order`), keyset-paginated on (posted_at, id); deleted ones left out. */
  async list(scope: CommentScope, f: CommentFilters): Promise<ListResponse<CommentRow>> {
    const after = decodeCursor(f.page, timeIdCursor);
    const [dir, cmp] = f.order === 'asc' ? ['ASC', '>'] : ['DESC', '<'];
    const r = await this.db.query<CommentRow>(
      `${COMMENT}
        WHERE c.space_id = $1 AND c.change_request_id IS NOT DISTINCT FROM $2 AND c.deleted_at IS NULL
          AND ($3::text IS NULL OR c.status = $3)
          AND ($4::text IS NULL OR c.page_id = $4)
          AND ($5::text[] IS NULL OR c.posted_by = ANY($5::text[]))
          AND ($6::timestamptz IS NULL OR (c.posted_at, c.id) ${cmp} ($6::timestamptz, $7::text))
        ORDER BY c.posted_at ${dir}, c.id ${dir}
        LIMIT $8`,
      [
        scope.spaceId,
        scope.changeRequestId ?? null,
        f.status === 'all' ? null : f.status,
        f.targetPage ?? null,
        f.authors?.length ? f.authors : null,
        after?.[0] ?? null,
        after?.[1] ?? null,
        f.limit + 1,
      ],
    );
    return toPage(r.rows, f.limit, (row) => row, (row) => [new Date(row.posted_at).toISOString(), row.id]);
  }

  async reply(commentId: string, replyId: string): Promise<CommentReplyRow | undefined> {
    const r = await this.db.query<CommentReplyRow>(`${REPLY} WHERE r.comment_id = $1 AND r.id = $2 AND r.deleted_at IS NULL`, [commentId, replyId]);
    return r.rows[0];
  }

  /** Oldest first, as a thread reads. */
  async replies(commentId: string, f: { page?: string; limit: number }): Promise<ListResponse<CommentReplyRow>> {
    const after = decodeCursor(f.page, timeIdCursor);
    const r = await this.db.query<CommentReplyRow>(
      `${REPLY}
        WHERE r.comment_id = $1 AND r.deleted_at IS NULL
          AND ($2::timestamptz IS NULL OR (r.posted_at, r.id) > ($2::timestamptz, $3::text))
        ORDER BY r.posted_at, r.id
        LIMIT $4`,
      [commentId, after?.[0] ?? null, after?.[1] ?? null, f.limit + 1],
    );
    return toPage(r.rows, f.limit, (row) => row, (row) => [new Date(row.posted_at).toISOString(), row.id]);
  }
}
