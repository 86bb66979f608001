import { Queryable } from '@quire/platform/db/db';
import { Position, START } from '@quire/event-store/position';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';

/** What every git run of a space shows, an import's or an export's. */
export interface GitRunView {
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
  /** The space revision the run wrote (an import) or pushed (an export). */
  revision?: string;
  commit?: { oid: string; message: string };
  error?: { code: string; message: string };
}

/** The table of one kind of run: `rm_git_imports` or `rm_git_exports` (their projections own them). */
export type GitRunTable = 'rm_git_imports' | 'rm_git_exports';

/** A page of a space's runs in `table`, newest first (keyset on requested_at, id). */
export async function listSpaceGitRuns<T>(db: Queryable, table: GitRunTable, spaceId: string, opts: { page?: string; limit: number }, present: (row: any) => T): Promise<ListResponse<T>> {
  const after = decodeCursor(opts.page, timeIdCursor);
  const r = await db.query<any>(
    `SELECT * FROM ${table} WHERE space_id = $1
        AND ($2::timestamptz IS NULL OR (requested_at, id) < ($2::timestamptz, $3::text))
      ORDER BY requested_at DESC, id DESC LIMIT $4`,
    [spaceId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
  );
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE space_id = $1`, [spaceId]);
  return toPage(r.rows, opts.limit, present, (row) => [new Date(row.requested_at).toISOString(), row.id], count.rows[0].n);
}

const OWNER: Record<GitRunTable, string> = { rm_git_imports: 'git-imports', rm_git_exports: 'git-exports' };

/**
 * How far the projection that owns `table` has applied the event stream. Its checkpoint moves in
 * the same transaction as its rows, so read after a page of runs it is at or past every run the
 * page shows.
 */
export async function gitRunsAppliedThrough(db: Queryable, table: GitRunTable): Promise<Position> {
  const r = await db.query<{ commit_pos: string; prepare_pos: string }>(`SELECT commit_pos, prepare_pos FROM quire_projections WHERE name = $1`, [OWNER[table]]);
  const row = r.rows[0];
  return row ? { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) } : START;
}

/** The fields every run's row has, as the API shows them. */
export function presentGitRun(row: any): GitRunView {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);
  const out: GitRunView = {
    id: row.id,
    status: row.status,
    url: row.url,
    ref: row.ref,
    standalone: row.standalone,
    requestedBy: row.requested_by,
    requestedAt: iso(row.requested_at)!,
  };
  if (row.timestamp) out.timestamp = row.timestamp;
  if (row.started_at) out.startedAt = iso(row.started_at);
  if (row.finished_at) out.finishedAt = iso(row.finished_at);
  if (row.revision) out.revision = row.revision;
  if (row.commit) out.commit = row.commit;
  if (row.error) out.error = row.error;
  return out;
}
