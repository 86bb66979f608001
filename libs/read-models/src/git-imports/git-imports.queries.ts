import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';

export interface GitImportRun {
  object: 'git-import';
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'skipped';
  url: string;
  ref: string;
  standalone: boolean;
  timestamp?: string;
  requestedBy: string;
  requestedAt: string;
  startedAt?: string;
  finishedAt?: string;
  revision?: string;
  commit?: { oid: string; message: string };
  warnings: string[];
  error?: { code: string; message: string };
}

export class GitImportQueries {
  constructor(private readonly db: Queryable) {}

  async list(spaceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<GitImportRun>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    const r = await this.db.query<any>(
      `SELECT * FROM rm_git_imports WHERE space_id = $1
          AND ($2::timestamptz IS NULL OR (requested_at, id) < ($2::timestamptz, $3::text))
        ORDER BY requested_at DESC, id DESC LIMIT $4`,
      [spaceId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
    );
    const count = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_git_imports WHERE space_id = $1`, [spaceId]);
    return toPage(r.rows, opts.limit, present, (row) => [new Date(row.requested_at).toISOString(), row.id], count.rows[0].n);
  }
}

function present(row: any): GitImportRun {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);
  const out: GitImportRun = {
    object: 'git-import',
    id: row.id,
    status: row.status,
    url: row.url,
    ref: row.ref,
    standalone: row.standalone,
    requestedBy: row.requested_by,
    requestedAt: iso(row.requested_at)!,
    warnings: row.warnings ?? [],
  };
  if (row.timestamp) out.timestamp = row.timestamp;
  if (row.started_at) out.startedAt = iso(row.started_at);
  if (row.finished_at) out.finishedAt = iso(row.finished_at);
  if (row.revision) out.revision = row.revision;
  if (row.commit) out.commit = row.commit;
  if (row.error) out.error = row.error;
  return out;
}
