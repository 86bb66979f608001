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

  async setPosition(name: string, position: Position, tx: Queryable): Promise<void> {
    await tx.query(`UPDATE quire_projections SET commit_pos = $2, prepare_pos = $3, updated_at = now() WHERE name = $1`, [
      name,
      position.commit.toString(),
      position.prepare.toString(),
    ]);
    await tx.query(`SELECT pg_notify('quire_checkpoints', $1)`, [`${name}:${position.commit}/${position.prepare}`]);
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
