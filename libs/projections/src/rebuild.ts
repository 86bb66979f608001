import { Db } from '@quire/platform/db/db';
import { EventStore } from '@quire/event-store/event-store.port';
import { Position, START } from '@quire/event-store/position';
import type { Logger } from '@quire/platform/logging/logger';
import { Projection, REBUILD_SCHEMA, rebuildTables } from './projection';
import { ProjectionRegistry } from './projection-registry';

export interface RebuildProgress {
  projection: string;
  events: number;
  total: number;
  eventsPerSecond: number;
}

/**
 * Rebuilds a projection into fresh tables while the live ones keep serving, then swaps them in
 * one transaction that holds the projection's checkpoint row (so the live runner pauses) and
 * applies the last events first: nothing is missed, nothing applied twice.
 */
export async function rebuildProjection(opts: {
  db: Db;
  store: EventStore;
  projection: Projection;
  registry?: ProjectionRegistry;
  batchSize?: number;
  logger?: Logger;
  onProgress?: (p: RebuildProgress) => void;
}): Promise<{ events: number; seconds: number }> {
  const { db, store, projection: p } = opts;
  const registry = opts.registry ?? new ProjectionRegistry(db);
  const batchSize = opts.batchSize ?? 2000;
  const started = Date.now();
  await registry.init();
  const total = await countEvents(db);
  const scratch = `${REBUILD_SCHEMA}`;
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${scratch};` + p.tables.map((t) => `DROP TABLE IF EXISTS ${rebuildTables(t)} CASCADE;`).join('\n'));
  await db.exec(p.schema(rebuildTables));

  let position: Position = START;
  let applied = 0;
  const applyBatch = async (tx: Parameters<Parameters<Db['transaction']>[0]>[0], limit: number) => {
    const events = await store.readAll(position, limit);
    for (const e of events) if (p.handles.includes(e.type)) await p.apply(e, tx, rebuildTables);
    if (events.length) position = events[events.length - 1].position;
    applied += events.length;
    return events.length;
  };

  for (;;) {
    const n = await db.transaction((tx) => applyBatch(tx, batchSize));
    const seconds = (Date.now() - started) / 1000;
    opts.onProgress?.({ projection: p.name, events: applied, total: Math.max(total, applied), eventsPerSecond: applied / Math.max(seconds, 0.001) });
    if (n < batchSize) break;
  }

  await db.transaction(async (tx) => {
    await registry.lock(p.name, tx);
    while ((await applyBatch(tx, batchSize)) === batchSize);
    for (const t of p.tables) {
      await tx.query(`DROP TABLE IF EXISTS ${t} CASCADE`);
      await tx.query(`ALTER TABLE ${rebuildTables(t)} SET SCHEMA public`);
    }
    await registry.upsert(p.name, p.version, position, tx);
    await tx.query(`SELECT pg_notify('quire_checkpoints', $1)`, [`${p.name}:${position.commit}/${position.prepare}`]);
  });
  const seconds = (Date.now() - started) / 1000;
  opts.logger?.info({ projection: p.name, events: applied, seconds }, 'projection rebuilt');
  return { events: applied, seconds };
}

async function countEvents(db: Db): Promise<number> {
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM quire_events`).catch(() => ({ rows: [{ n: 0 }] }));
  return Number(r.rows[0]?.n ?? 0);
}
