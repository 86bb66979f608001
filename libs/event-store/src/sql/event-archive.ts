import { Db } from '@quire/platform/db/db';
import { EVENT_STORE_SCHEMA } from './event-store.schema';

/**
 * One event as a backup keeps it: exactly as stored (its original schema version and data, never
 * upcast, so restoring rewrites no history), with its id, stream version and time of recording.
 */
export interface ArchivedEvent {
  id: string;
  streamId: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  recordedAt: string;
}

const PAGE = 2000;

/**
 * Hands every committed event over in global order, from one snapshot (REPEATABLE READ): appends
 * that commit meanwhile are left out whole, so the events handed over are a consistent prefix of
 * the store. Returns how many there were.
 */
export async function exportEvents(db: Db, each: (events: ArchivedEvent[]) => Promise<void>): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    let after: { tx: string; pos: string } = { tx: '0', pos: '0' };
    let count = 0;
    for (;;) {
      const r = await tx.query<{ event_id: string; stream_id: string; stream_version: string; type: string; schema_version: number; data: unknown; metadata: unknown; recorded_at: Date; tx: string; pos: string }>(
        `SELECT event_id, stream_id, stream_version::text, type, schema_version, data, metadata, recorded_at, transaction_id::text AS tx, global_position::text AS pos
           FROM quire_events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
          ORDER BY transaction_id, global_position LIMIT ${PAGE}`,
        [after.tx, after.pos],
      );
      if (r.rows.length) {
        await each(
          r.rows.map((row) => ({
            id: row.event_id,
            streamId: row.stream_id,
            streamVersion: Number(row.stream_version),
            type: row.type,
            schemaVersion: row.schema_version,
            data: row.data,
            metadata: row.metadata,
            recordedAt: new Date(row.recorded_at).toISOString(),
          })),
        );
        count += r.rows.length;
        const last = r.rows[r.rows.length - 1];
        after = { tx: last.tx, pos: last.pos };
      }
      if (r.rows.length < PAGE) return count;
    }
  });
}

/** Events already in the store (a restore goes only into an empty one). */
export async function countStoredEvents(db: Db): Promise<number> {
  await db.exec(EVENT_STORE_SCHEMA);
  const r = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM quire_events`);
  return Number(r.rows[0].n);
}

/**
 * Writes archived events back, in the order given (their global order), keeping ids, stream
 * versions and recording times (a stream's version is its last event's). One statement per
 * batch, each after the previous, so global positions follow the archive's order.
 */
export async function importEvents(db: Db, batch: readonly ArchivedEvent[]): Promise<void> {
  if (!batch.length) return;
  await db.query(
    `INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata, recorded_at)
     SELECT s, v, id, t, sv, d, m, at
       FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[], $8::timestamptz[]) WITH ORDINALITY AS e(s, v, id, t, sv, d, m, at, n)
      ORDER BY n`,
    [
      batch.map((e) => e.streamId),
      batch.map((e) => e.streamVersion),
      batch.map((e) => e.id),
      batch.map((e) => e.type),
      batch.map((e) => e.schemaVersion),
      batch.map((e) => JSON.stringify(e.data ?? null)),
      batch.map((e) => JSON.stringify(e.metadata ?? {})),
      batch.map((e) => e.recordedAt),
    ],
  );
}
