import { randomBytes } from 'crypto';
import { Db, Queryable } from '@quire/platform/db/db';
import { EventStore, RecordedEvent } from '@quire/event-store/event-store.port';
import { comparePositions, formatPosition, Position, START } from '@quire/event-store/position';
import { Projection, TableNamer } from './projection';
import { ProjectionRegistry } from './projection-registry';
import { scriptRunner } from './rebuild';
import { StatementFacts, WriteBatchingQueryable } from './write-batching';

/** One read-model table that is not what a replay of the events builds. */
export interface ReadModelDifference {
  projection: string;
  table: string;
  /** Rows in the live table that a replay does not build, and rows a replay builds that the live table lacks. */
  onlyLive: number;
  onlyReplay: number;
}

export interface ReadModelComparison {
  /** Where each projection was compared: its checkpoint. */
  positions: Record<string, string>;
  tables: number;
  differences: ReadModelDifference[];
  /** Projections whose replay failed on an event (say, page text missing from the content store): not compared. */
  unreplayable: Array<{ projection: string; error: string }>;
}

/**
 * Replays every event into scratch tables (a schema of their own, dropped afterwards) and
 * compares them with the live read models, table by table, by an order-independent checksum of
 * their rows. Safe beside a live server: the scratch build runs without locks up to the slowest
 * checkpoint; then one transaction takes every projection's checkpoint row (as a batch or a
 * replay's swap does, so the runners pause: their batches wait for the row before writing),
 * brings each scratch projection up to its live checkpoint and compares. The pause lasts as long as
 * the last events and the checksums take.
 */
export async function compareReadModels(opts: { db: Db; store: EventStore; projections: readonly Projection[]; batchSize?: number }): Promise<ReadModelComparison> {
  const { db, store } = opts;
  const batchSize = opts.batchSize ?? 5000;
  const projections = [...opts.projections].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const registry = new ProjectionRegistry(db);
  const schema = `quire_check_${randomBytes(4).toString('hex')}`;
  const scratch: TableNamer = (table) => `${schema}.${table}`;
  const handles = projections.map((p) => new Set(p.handles));
  const unreplayable = new Map<string, string>();
  const facts = new StatementFacts();
  const apply = async (i: number, events: readonly RecordedEvent[], tx: Queryable) => {
    const p = projections[i];
    if (unreplayable.has(p.name)) return;
    const target = p.writeResultsUnused ? new WriteBatchingQueryable(tx, scriptRunner(tx), undefined, facts) : undefined;
    let current: RecordedEvent | undefined;
    try {
      for (const e of events) if (handles[i].has(e.type)) await p.apply((current = e), target ?? tx, scratch);
      await target?.flush();
    } catch (err) {
      // Its scratch tables are left half-built and never compared; the other projections go on.
      unreplayable.set(p.name, `${current ? `event ${current.id} (${current.type} at ${formatPosition(current.position)}): ` : ''}${(err as Error)?.message ?? err}`);
    }
  };

  await db.exec(`CREATE SCHEMA ${schema}`);
  try {
    for (const p of projections) await db.exec(p.schema(scratch));
    const rows = new Map((await registry.all()).map((r) => [r.name, r]));
    let slowest: Position | undefined;
    for (const p of projections) {
      const at = rows.get(p.name)?.position ?? START;
      if (!slowest || comparePositions(at, slowest) < 0) slowest = at;
    }
    // Checkpoints only move forward: every live projection is at least here when the lock is taken.
    const shared = await replayInto(store, START, slowest ?? START, batchSize, (events) =>
      Promise.all(projections.map((_, i) => db.transaction((tx) => apply(i, events, tx)))).then(() => undefined),
    );

    return await db.transaction(async (tx) => {
      const positions: Record<string, string> = {};
      const differences: ReadModelDifference[] = [];
      let tables = 0;
      for (const [i, p] of projections.entries()) {
        const row = await registry.lock(p.name, tx);
        const at = row?.position ?? START;
        positions[p.name] = formatPosition(at);
        await replayInto(store, shared, at, batchSize, (events) => apply(i, events, tx));
      }
      for (const p of projections) {
        if (unreplayable.has(p.name)) continue;
        for (const table of p.tables) {
          tables++;
          const live = await checksum(tx, table);
          const replayed = await checksum(tx, scratch(table));
          if (live.n === replayed.n && live.sum === replayed.sum) continue;
          differences.push({ projection: p.name, table, ...(await rowDifferences(tx, table, scratch(table))) });
        }
      }
      return { positions, tables, differences, unreplayable: [...unreplayable].map(([projection, error]) => ({ projection, error })) };
    });
  } finally {
    await db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

/** Reads the events in (from, until] in batches and hands each batch over; returns the last position read. */
async function replayInto(store: EventStore, from: Position, until: Position, batchSize: number, each: (events: RecordedEvent[]) => Promise<void>): Promise<Position> {
  let position = from;
  while (comparePositions(position, until) < 0) {
    const read = await store.readAll(position, batchSize);
    const events = read.filter((e) => comparePositions(e.position, until) <= 0);
    if (events.length) {
      await each(events);
      position = events[events.length - 1].position;
    }
    if (events.length < read.length || read.length < batchSize) break;
  }
  return position;
}

/** Row count and an order-independent sum of row hashes (60 bits of each row's md5). */
async function checksum(tx: Queryable, table: string): Promise<{ n: number; sum: string }> {
  const r = await tx.query<{ n: string; sum: string }>(
    `SELECT count(*)::text AS n, coalesce(sum(('x' || left(md5(t::text), 15))::bit(60)::bigint), 0)::text AS sum FROM ${table} t`,
  );
  return { n: Number(r.rows[0].n), sum: r.rows[0].sum };
}

async function rowDifferences(tx: Queryable, live: string, replayed: string): Promise<{ onlyLive: number; onlyReplay: number }> {
  const count = async (a: string, b: string) =>
    Number((await tx.query<{ n: string }>(`SELECT count(*)::text AS n FROM (SELECT md5(t::text) FROM ${a} t EXCEPT ALL SELECT md5(t::text) FROM ${b} t) d`)).rows[0].n);
  return { onlyLive: await count(live, replayed), onlyReplay: await count(replayed, live) };
}
