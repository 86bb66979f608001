import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';

export interface GitExportRun {
  object: 'git-export';
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'skipped';
  url: string;
  ref: string;
  commitMessage: string;
  repoProjectDirectory?: string;
  standalone: boolean;
  force: boolean;
  timestamp?: string;
  requestedBy: string;
  requestedAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** The space revision exported. */
  revision?: string;
  /** The commit on the branch: the one pushed, or the one already there (`pushed: false`). */
  commit?: { oid: string; message: string };
  pushed?: boolean;
  error?: { code: string; message: string };
}

export class GitExportQueries {
  constructor(private readonly db: Queryable) {}

  async list(spaceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<GitExportRun>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    const r = await this.db.query<any>(
      `SELECT * FROM rm_git_exports WHERE space_id = $1
          AND ($2::timestamptz IS NULL OR (requested_at, id) < ($2::timestamptz, $3::text))
        ORDER BY requested_at DESC, id DESC LIMIT $4`,
      [spaceId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
    );
    const count = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_git_exports WHERE space_id = $1`, [spaceId]);
    return toPage(r.rows, opts.limit, present, (row) => [new Date(row.requested_at).toISOString(), row.id], count.rows[0].n);
  }
}

function present(row: any): GitExportRun {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);
  const out: GitExportRun = {
    object: 'git-export',
    id: row.id,
    status: row.status,
    url: row.url,
    ref: row.ref,
    commitMessage: row.commit_message,
    standalone: row.standalone,
    force: row.force,
    requestedBy: row.requested_by,
    requestedAt: iso(row.requested_at)!,
  };
  if (row.project_directory) out.repoProjectDirectory = row.project_directory;
  if (row.timestamp) out.timestamp = row.timestamp;
  if (row.started_at) out.startedAt = iso(row.started_at);
  if (row.finished_at) out.finishedAt = iso(row.finished_at);
  if (row.revision) out.revision = row.revision;
  if (row.commit) out.commit = row.commit;
  if (row.pushed !== null && row.pushed !== undefined) out.pushed = row.pushed;
  if (row.error) out.error = row.error;
  return out;
}
