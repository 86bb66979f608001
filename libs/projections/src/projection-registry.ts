import { Db, Queryable } from '@quire/platform/db/db';
import { Position, START } from '@quire/event-store/position';

export const REGISTRY_SCHEMA = `
CREATE TABLE IF NOT EXISTS quire_projections (
  name text PRIMARY KEY,
  version int NOT NULL,
  commit_pos text NOT NULL DEFAULT '0',
  prepare_pos text NOT NULL DEFAULT '0',
  status text NOT NULL DEFAULT 'running',
  error text,
  updated_at timestamptz NOT NULL DEFAULT now()
);`;

export interface ProjectionRow {
  name: string;
  version: number;
  position: Position;
  status: 'running' | 'failed' | 'rebuilding';
  error: string | null;
}

function toRow(r: any): ProjectionRow {
  return {
    name: r.name,
    version: r.version,
    position: { commit: BigInt(r.commit_pos), prepare: BigInt(r.prepare_pos) },
    status: r.status,
    error: r.error,
  };
}

/** Checkpoints and health of every projection, in the read-model database. */
export class ProjectionRegistry {
  constructor(private readonly db: Db) {}

  async init(): Promise<void> {
    await this.db.exec(REGISTRY_SCHEMA);
  }

  async all(): Promise<ProjectionRow[]> {
    const r = await this.db.query(`SELECT * FROM quire_projections ORDER BY name`);
    return r.rows.map(toRow);
  }

  async get(name: string, q: Queryable = this.db): Promise<ProjectionRow | undefined> {
    const r = await q.query(`SELECT * FROM quire_projections WHERE name = $1`, [name]);
    return r.rows[0] ? toRow(r.rows[0]) : undefined;
  }

  /** Locks the row for the transaction: batches and the rebuild swap serialise on it. */
  async lock(name: string, tx: Queryable): Promise<ProjectionRow | undefined> {
    const r = await tx.query(`SELECT * FROM quire_projections WHERE name = $1 FOR UPDATE`, [name]);
    return r.rows[0] ? toRow(r.rows[0]) : undefined;
  }

  /** Locks several projections' rows for the transaction, in name order (a rebuild's swap). */
  async lockAll(names: readonly string[], tx: Queryable): Promise<void> {
    await tx.query(`SELECT name FROM quire_projections WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE`, [names]);
  }

  /**
   * Puts several projections at a version and position, running, and announces their checkpoints
   * (as setPosition does): one statement for a rebuild's swap, which live runners wait behind.
   */
  async upsertAll(projections: readonly { name: string; version: number }[], position: Position, tx: Queryable): Promise<void> {
    await tx.query(
      `WITH upserted AS (
         INSERT INTO quire_projections (name, version, commit_pos, prepare_pos, status, error)
         SELECT p.name, p.version, $3::text, $4::text, 'running', NULL FROM unnest($1::text[], $2::int[]) AS p(name, version)
         ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, commit_pos = EXCLUDED.commit_pos, prepare_pos = EXCLUDED.prepare_pos,
           status = 'running', error = NULL, updated_at = now()
         RETURNING name)
       SELECT pg_notify('quire_checkpoints', name || ':' || $3::text || '/' || $4::text) FROM upserted`,
      [projections.map((p) => p.name), projections.map((p) => p.version), position.commit.toString(), position.prepare.toString()],
    );
  }

  /**
   * Moves the named projections' checkpoints to `to` where they are at or past `from` and before
   * `to`, and announces each moved one (as setPosition does), in one statement; returns where
   * each named row is then. For projections that have nothing to apply between `from` and `to`:
   * a row behind `from` (a rebuild swapped in an older checkpoint) is not moved over the events it
   * lacks, and one ahead (a newer rebuild) never moves back. Committed without waiting for the WAL
   * flush: a checkpoint lost in a crash is read past again, and the events it passed change none
   * of its rows.
   */
  async passOver(names: readonly string[], from: Position, to: Position, q: Queryable = this.db): Promise<Map<string, Position>> {
    const r = await q.query<{ name: string; commit_pos: string; prepare_pos: string }>(
      `WITH config AS (SELECT set_config('synchronous_commit', 'off', true)),
       moved AS (
         UPDATE quire_projections SET commit_pos = $4, prepare_pos = $5, updated_at = now()
          WHERE name = ANY($1::text[])
            AND (commit_pos::numeric, prepare_pos::numeric) >= ($2::numeric, $3::numeric)
            AND (commit_pos::numeric, prepare_pos::numeric) < ($4::numeric, $5::numeric)
         RETURNING name, commit_pos, prepare_pos, pg_notify('quire_checkpoints', name || ':' || commit_pos || '/' || prepare_pos))
       SELECT p.name, coalesce(m.commit_pos, p.commit_pos) AS commit_pos, coalesce(m.prepare_pos, p.prepare_pos) AS prepare_pos
         FROM config, quire_projections p LEFT JOIN moved m USING (name)
        WHERE p.name = ANY($1::text[])`,
      [names, from.commit.toString(), from.prepare.toString(), to.commit.toString(), to.prepare.toString()],
    );
    return new Map(r.rows.map((row) => [row.name, { commit: BigInt(row.commit_pos), prepare: BigInt(row.prepare_pos) }]));
  }

  /** Writes the checkpoint and announces it at commit, in one round trip. */
  async setPosition(name: string, position: Position, tx: Queryable): Promise<void> {
    await tx.query(
      `WITH moved AS (UPDATE quire_projections SET commit_pos = $2, prepare_pos = $3, updated_at = now() WHERE name = $1 RETURNING 1)
       SELECT pg_notify('quire_checkpoints', $4), (SELECT count(*) FROM moved)`,
      [name, position.commit.toString(), position.prepare.toString(), `${name}:${position.commit}/${position.prepare}`],
    );
  }

  async upsert(name: string, version: number, position: Position = START, tx: Queryable = this.db): Promise<void> {
    await tx.query(
      `INSERT INTO quire_projections (name, version, commit_pos, prepare_pos, status, error) VALUES ($1, $2, $3, $4, 'running', NULL)
       ON CONFLICT (name) DO UPDATE SET version = $2, commit_pos = $3, prepare_pos = $4, status = 'running', error = NULL, updated_at = now()`,
      [name, version, position.commit.toString(), position.prepare.toString()],
    );
  }

  async markFailed(name: string, error: string): Promise<void> {
    await this.db.query(`UPDATE quire_projections SET status = 'failed', error = $2, updated_at = now() WHERE name = $1`, [name, error]);
  }
}
