import { z } from 'zod';
import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, toPage } from '@quire/platform/http/pagination';
import type { UserRow } from '../identity/identity.queries';

export interface RevisionHistoryRow {
  space_id: string;
  id: string;
  position_commit: string;
  position_prepare: string;
  kind: string;
  parents: string[];
  created_by: string | null;
  created_at: Date;
  merged_from: string | null;
  import_id: string | null;
  standalone: boolean;
  restored_from: { revision: string; page?: string } | null;
  author: UserRow | null;
  /** The merged change request's number and subject. */
  change_request: { id: string; number: number; subject: string } | null;
  /** The import's repository and ref (stored without credentials). */
  git_import: { url: string; ref: string } | null;
}

/** `[commit, prepare]` of the event that recorded the revision, as decimal strings. */
const positionCursor = z.tuple([z.string().regex(/^\d{1,20}$/), z.string().regex(/^\d{1,20}$/)]);

/**
 * The history a page took part in is every revision where it differs from the revision's first
 * parent (created, deleted, or any attribute or parent changed); its path alone follows a
 * renamed ancestor and does not count.
 */
const PAGE_CHANGED = `
  EXISTS (
    SELECT 1 FROM (SELECT 1) x
      LEFT JOIN rm_revision_pages p ON p.space_id = h.space_id AND p.revision_id = h.id AND p.page_id = $5
      LEFT JOIN rm_revision_pages pp ON pp.space_id = h.space_id AND pp.revision_id = h.parents->>0 AND pp.page_id = $5
     WHERE (p.page_id IS NULL) <> (pp.page_id IS NULL)
        OR (p.page_id IS NOT NULL AND (p.parent_id IS DISTINCT FROM pp.parent_id
            OR (p.node - 'children' - 'path') IS DISTINCT FROM (pp.node - 'children' - 'path'))))`;

export class RevisionHistoryQueries {
  constructor(private readonly db: Queryable) {}

  /**
   * A space's revisions, newest first (in the order they were recorded), keyset-paginated; with
   * `pageId`, only those in which that page changed.
   */
  async list(spaceId: string, opts: { page?: string; limit: number; pageId?: string }): Promise<ListResponse<RevisionHistoryRow>> {
    const after = decodeCursor(opts.page, positionCursor);
    const r = await this.db.query<RevisionHistoryRow>(
      `SELECT h.*, row_to_json(u) AS author,
              CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('id', c.id, 'number', c.number, 'subject', c.subject) END AS change_request,
              CASE WHEN g.id IS NOT NULL THEN jsonb_build_object('url', g.url, 'ref', g.ref) END AS git_import
         FROM rm_revision_history h
         LEFT JOIN rm_users u ON u.id = h.created_by
         LEFT JOIN rm_change_requests c ON c.id = h.merged_from
         LEFT JOIN rm_git_imports g ON g.id = h.import_id
        WHERE h.space_id = $1
          AND ($2::bigint IS NULL OR (h.position_commit, h.position_prepare) < ($2::bigint, $3::bigint))
          ${opts.pageId !== undefined ? `AND ${PAGE_CHANGED}` : 'AND $5::text IS NULL'}
        ORDER BY h.position_commit DESC, h.position_prepare DESC
        LIMIT $4`,
      [spaceId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1, opts.pageId ?? null],
    );
    return toPage(
      r.rows,
      opts.limit,
      (row) => row,
      (row) => [String(row.position_commit), String(row.position_prepare)],
    );
  }
}
