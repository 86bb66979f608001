import { Db, Queryable } from '@quire/platform/db/db';
import { EventStore, RecordedEvent } from '@quire/event-store/event-store.port';
import { Position, START } from '@quire/event-store/position';
import type { Logger } from '@quire/platform/logging/logger';
import { statisticsOutgrown } from '@quire/platform/db/table-statistics';
import { Projection, REBUILD_SCHEMA, rebuildTables } from './projection';
import { ProjectionRegistry } from './projection-registry';
import { RowsWritten, ScriptQueryable, StatementFacts, WriteBatchingQueryable } from './write-batching';

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
  return rebuildProjections({ ...opts, projections: [opts.projection] });
}

/**
 * Rebuilds several projections in one pass over `$all`: each batch of events is read once and
 * applied to every projection (reading the store is a good part of a replay's time), and the next
 * batch is read while they apply this one. The swap takes all their checkpoint rows, in name order.
 *
 * The rebuild tables are private until the swap and a crash starts the rebuild over, so their
 * secondary indexes are built once at the end and every commit before the swap skips the WAL
 * flush. (Unlogged rebuild tables, logged again before the swap, cost more than they saved at
 * 20,000 events: creating and rewriting them syncs every table and index file, about 40 fsyncs.)
 */
export async function rebuildProjections(opts: {
  db: Db;
  store: EventStore;
  projections: readonly Projection[];
  registry?: ProjectionRegistry;
  batchSize?: number;
  logger?: Logger;
  onProgress?: (p: RebuildProgress) => void;
}): Promise<{ events: number; seconds: number }> {
  const { db, store } = opts;
  const projections = [...opts.projections].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const registry = opts.registry ?? new ProjectionRegistry(db);
  const batchSize = opts.batchSize ?? 5000;
  const started = Date.now();
  await registry.init();
  await analyzeEvents(db);
  // The first batch and the count are read while the rebuild tables are created.
  const counting = countEvents(db);
  let position: Position = START;
  // The next batch is read while this one is applied. A read still pending when applying fails
  // is never awaited: its own failure then must not surface as an unhandled rejection.
  const read = (from: Position) => {
    const reading = store.readAll(from, batchSize);
    reading.catch(() => undefined);
    return reading;
  };
  let next = read(position);
  // Each projection's tables are created in a transaction of its own, in parallel: creating a table
  // and its unique indexes syncs each new index file, and those syncs then overlap. A projection
  // whose tables are there takes the first batch while the others' are still being created.
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${REBUILD_SCHEMA}`);
  const created = projections.map((p) => {
    const creating = asyncCommitTransaction(db, async (tx) => {
      const tables = p.tables.map(rebuildTables);
      const { schema, indexes } = withoutSecondaryIndexes(p.schema(rebuildTables));
      await scriptRunner(tx)(tables.map((t) => `DROP TABLE IF EXISTS ${t} CASCADE;`).join('\n') + schema);
      return [...indexes, ...(await deferIndexes(tx, tables))];
    });
    // Awaited by the first batch; one failing while another's is awaited must not go unhandled.
    creating.catch(() => undefined);
    return creating;
  });

  const total = await counting;
  let applied = 0;
  const handles = projections.map((p) => new Set(p.handles));
  const facts = new StatementFacts();
  const label = projections.map((p) => p.name).join(', ');
  // The rebuild tables start empty: each projection's rows written so far tell an INSERT of a new row.
  const written = projections.map(() => new RowsWritten());
  const applyTo = async (i: number, events: RecordedEvent[], tx: Queryable) => {
    const p = projections[i];
    const target = p.writeResultsUnused ? new WriteBatchingQueryable(tx, scriptRunner(tx), undefined, facts, undefined, written[i]) : undefined;
    for (const e of events) if (handles[i].has(e.type)) await p.apply(e, target ?? tx, rebuildTables);
    await target?.flush();
  };
  const advance = (events: RecordedEvent[]) => {
    if (events.length) position = events[events.length - 1].position;
    applied += events.length;
    return events.length;
  };
  /** The catch-up inside the swap: one transaction for all. */
  const applyBatch = async (tx: Queryable, limit: number) => {
    const events = await store.readAll(position, limit);
    for (const i of projections.keys()) await applyTo(i, events, tx);
    return advance(events);
  };

  for (;;) {
    const events = await next;
    const last = events.length < batchSize;
    if (!last) next = read(events[events.length - 1].position);
    // Before the swap the rebuild tables are private: each projection takes the batch in its own
    // transaction, in parallel (PGlite, one connection, queues them). One done with the last batch
    // builds its secondary indexes, in a transaction of their own, while the others still apply it.
    await Promise.all(
      projections.map(async (_, i) => {
        const indexes = await created[i];
        await asyncCommitTransaction(db, (tx) => applyTo(i, events, tx));
        if (last && indexes.length) await asyncCommitTransaction(db, (tx) => scriptRunner(tx)(indexes.map((x) => `${x};`).join('\n')));
      }),
    );
    advance(events);
    const seconds = (Date.now() - started) / 1000;
    opts.onProgress?.({ projection: label, events: applied, total: Math.max(total, applied), eventsPerSecond: applied / Math.max(seconds, 0.001) });
    if (last) break;
  }

  await db.transaction(async (tx) => {
    await registry.lockAll(projections.map((p) => p.name), tx);
    while ((await applyBatch(tx, batchSize)) === batchSize);
    // One round trip for every table's swap: the live runners wait on their checkpoint rows meanwhile.
    await scriptRunner(tx)(
      projections.flatMap((p) => p.tables.map((t) => `DROP TABLE IF EXISTS ${t} CASCADE;\nALTER TABLE ${rebuildTables(t)} SET SCHEMA public;`)).join('\n'),
    );
    await registry.upsertAll(projections, position, tx);
  });
  const seconds = (Date.now() - started) / 1000;
  opts.logger?.info({ projections: projections.map((p) => p.name), events: applied, seconds }, 'projections rebuilt');
  return { events: applied, seconds };
}

/**
 * A transaction of the rebuild before its swap: what it commits is of no use after a crash (the
 * rebuild starts over), so the commit does not wait for the WAL flush.
 */
function asyncCommitTransaction<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(fn, { asyncCommit: true });
}

/**
 * Drops the secondary indexes of freshly created rebuild tables and returns the statements that
 * create them again. Filled without them, the tables take each row write with
 * fewer index entries (most updates become HOT); the indexes are built once, in bulk, before the
 * swap. Unique indexes stay: ON CONFLICT and uniqueness errors depend on them.
 */
async function deferIndexes(tx: Queryable, tables: string[]): Promise<string[]> {
  const r = await tx.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i WHERE i.indrelid = ANY($1::regclass[]) AND NOT i.indisunique AND NOT i.indisexclusion`,
    [tables],
  );
  if (r.rows.length) await scriptRunner(tx)(r.rows.map((x) => `DROP INDEX ${x.name};`).join('\n'));
  return r.rows.map((x) => x.definition);
}

/**
 * A schema script without the secondary indexes it creates in statements of the usual shape
 * (`CREATE INDEX ...;` on a line of its own, before any dollar-quoted body), and their statements.
 * Creating them on the empty rebuild tables only to drop them (deferIndexes) syncs each new index
 * file, and dropping them makes the commit wait for its WAL flush. deferIndexes still finds any
 * other secondary index.
 */
export function withoutSecondaryIndexes(script: string): { schema: string; indexes: string[] } {
  const quoted = script.search(/\$\w*\$/);
  const head = quoted < 0 ? script : script.slice(0, quoted);
  const indexes: string[] = [];
  const schema = head.replace(/^[ \t]*(CREATE INDEX\b[^;\n]*);[ \t]*$/gim, (_, statement: string) => {
    indexes.push(statement);
    return '';
  });
  return { schema: schema + script.slice(head.length), indexes };
}

/**
 * A store that was just restored or bulk-loaded has no planner statistics yet, and without them
 * each page of `$all` is read by sorting every remaining event (about 200 ms a page instead of
 * about 1 ms, seen in bench/event-store). ANALYZE samples a bounded number of rows, so it costs
 * little even on a large store; it runs when the table was never analyzed or has more than
 * doubled since. A store whose events are not in this database has nothing to do.
 */
async function analyzeEvents(db: Db): Promise<void> {
  const stale = await statisticsOutgrown(db, 'quire_events', 0, 1).catch(() => false);
  if (stale) await db.exec(`ANALYZE quire_events`).catch(() => undefined);
}

async function countEvents(db: Db): Promise<number> {
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM quire_events`).catch(() => ({ rows: [{ n: 0 }] }));
  return Number(r.rows[0]?.n ?? 0);
}

/** PGlite's transaction runs scripts with `exec`; node-postgres runs a query without parameters as one. */
export function scriptRunner(tx: Queryable): (sql: string) => Promise<void> {
  const exec = (tx as Partial<ScriptQueryable>).exec;
  if (exec) return (sql) => exec.call(tx, sql);
  return async (sql) => {
    await tx.query(sql);
  };
}
