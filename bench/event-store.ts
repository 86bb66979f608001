import { randomUUID } from 'crypto';
import { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { rebuildProjection } from '@quire/projections/rebuild';
import { identityProjection } from '@quire/read-models/identity/identity.projection';
import { liveTables } from '@quire/projections/projection';
import { createTestDatabase } from '../test/support/databases';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function singleAppends(store: SqlEventStore, writers: number): Promise<number> {
  let n = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      let version = 0;
      const stream = `bench-single-${w}-${randomUUID()}`;
      while (Date.now() < until) {
        await store.append(stream, [{ type: 'Benched', data: { w, i: version } }], version === 0 ? 'no_stream' : version);
        version++;
        n++;
      }
    }),
  );
  return n / ((Date.now() - started) / 1000);
}

async function batchAppends(store: SqlEventStore, writers: number, batch: number): Promise<number> {
  let n = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const stream = `bench-batch-${w}-${randomUUID()}`;
      let version = 0;
      while (Date.now() < until) {
        const events = Array.from({ length: batch }, (_, i) => ({ type: 'Benched', data: { w, i } }));
        await store.append(stream, events, version === 0 ? 'no_stream' : version);
        version += batch;
        n += batch;
      }
    }),
  );
  return n / ((Date.now() - started) / 1000);
}

async function replayRate(db: Db, store: SqlEventStore, users: number): Promise<number> {
  await db.exec(identityProjection.schema(liveTables));
  for (let i = 0; i < users; i += 500) {
    const events = Array.from({ length: Math.min(500, users - i) }, (_, k) => ({
      type: 'UserCreated',
      data: { userId: `u${i + k}`, displayName: `User ${i + k}`, email: `u${i + k}@example.com`, instanceAdmin: false, createdAt: new Date().toISOString() },
    }));
    await store.append(`bench-users-${i}`, events, 'no_stream');
  }
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM quire_events`)).rows[0].n;
  const started = Date.now();
  await rebuildProjection({ db, store, projection: identityProjection });
  return total / ((Date.now() - started) / 1000);
}

function line(label: string, value: number, target?: number): void {
  const verdict = target === undefined ? '' : value >= target ? `  (target >= ${target}: ok)` : `  (target >= ${target}: BELOW)`;
  process.stdout.write(`${label.padEnd(52)} ${Math.round(value).toLocaleString('en-US').padStart(10)} events/s${verdict}\n`);
}

export async function run(): Promise<void> {
  const database = await createTestDatabase('quire_bench');
  const pg = new PgDb(database.url, { max: 20 });
  try {
    const store = await SqlEventStore.create(pg);
    line('PostgreSQL: single-event appends, 16 writers', await singleAppends(store, 16), 3000);
    line('PostgreSQL: 100-event batches, 4 writers', await batchAppends(store, 4, 100), 30000);
    line('PostgreSQL: replay into read models (identity)', await replayRate(pg, store, 50_000), 10000);
  } finally {
    await pg.close();
    await database.drop();
  }
  const lite = await PgliteDb.open();
  try {
    const store = await SqlEventStore.create(lite);
    line('PGlite: single-event appends, 16 writers', await singleAppends(store, 16));
    line('PGlite: 100-event batches, 4 writers', await batchAppends(store, 4, 100));
    line('PGlite: replay into read models (identity)', await replayRate(lite, store, 50_000));
  } finally {
    await lite.close();
  }
}
