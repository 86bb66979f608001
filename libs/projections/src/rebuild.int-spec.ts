import { PgDb } from '@quire/platform/db/pg-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { Projection } from './projection';
import { rebuildProjection, rebuildProjections } from './rebuild';

/**
 * A rebuild applies the events in batches, each projection's writes coalesced into scripts
 * (write-batching.ts): what a batch reads must see the writes of the batches before it, and a
 * write or a projection that fails batches in must fail the rebuild with its own error, leave
 * the live tables and checkpoint as they were, and leave no transaction open on the pool.
 */
const tally = (version: number): Projection => ({
  name: 'tally',
  version,
  tables: ['rm_tally'],
  writeResultsUnused: true,
  handles: ['Opened', 'Added', 'Closed'],
  // A total below zero is refused: the failing write of the spec below.
  schema: (t) => `CREATE TABLE ${t('rm_tally')} (id text PRIMARY KEY, total int NOT NULL CHECK (total >= 0), closed_at_total int);`,
  async apply(event, tx, t) {
    const d = event.data as { id: string; n?: number };
    if (event.type === 'Opened') await tx.query(`INSERT INTO ${t('rm_tally')} (id, total) VALUES ($1, 0) ON CONFLICT (id) DO NOTHING`, [d.id]);
    if (event.type === 'Added') await tx.query(`UPDATE ${t('rm_tally')} SET total = total + $2 WHERE id = $1`, [d.id, d.n]);
    // A read between writes: it must see every write of the batches before.
    if (event.type === 'Closed') {
      const r = await tx.query<{ total: number }>(`SELECT total FROM ${t('rm_tally')} WHERE id = $1`, [d.id]);
      await tx.query(`UPDATE ${t('rm_tally')} SET closed_at_total = $2 WHERE id = $1`, [d.id, r.rows[0].total]);
    }
  },
});

describe('rebuildProjections', () => {
  let database: TestDatabase;
  let db: PgDb;
  let store: SqlEventStore;
  /** Connections of the pool left inside a transaction, asked on a connection of another pool (the pool would hand the leaked one out first). */
  const openTransactions = async () => {
    const observer = new PgDb(database.url, { max: 1 });
    try {
      const r = await observer.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      return r.rows[0].n;
    } finally {
      await observer.close();
    }
  };
  const tallies = async () => (await db.query<{ id: string; total: number; closed_at_total: number | null }>(`SELECT * FROM rm_tally ORDER BY id`)).rows;

  beforeEach(async () => {
    database = await createTestDatabase();
    db = new PgDb(database.url);
    store = await SqlEventStore.create(db);
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  /** Two tallies: 40 additions of 1 each, in batches of 7 events; each closed in the last batch. */
  async function seed(lastAddition = 1): Promise<void> {
    const versions: Record<string, number> = {};
    const append = async (id: string, type: string, n?: number) => {
      const version = versions[id] ?? 0;
      await store.append(`tally-${id}`, [{ type, data: { id, n } }], version === 0 ? 'no_stream' : version);
      versions[id] = version + 1;
    };
    for (const id of ['a', 'b']) await append(id, 'Opened');
    for (let i = 0; i < 40; i++) await append(i % 2 ? 'a' : 'b', 'Added', i === 39 ? lastAddition : 1);
    for (const id of ['a', 'b']) await append(id, 'Closed');
  }

  it('applies every batch after the writes of the batches before it, sent without waiting', async () => {
    await seed();
    const result = await rebuildProjection({ db, store, projection: tally(1), batchSize: 7 });
    expect(result.events).toBe(44);
    expect(await tallies()).toEqual([
      { id: 'a', total: 20, closed_at_total: 20 },
      { id: 'b', total: 20, closed_at_total: 20 },
    ]);
  });

  it('fails with the error of a write that failed in a later batch, keeps the live tables, and gives its connections back clean', async () => {
    await seed();
    await rebuildProjection({ db, store, projection: tally(1), batchSize: 7 });
    const live = await tallies();
    // The 40th addition takes a's total below zero: the CHECK refuses it, four batches in.
    await db.query(`TRUNCATE quire_events`);
    await seed(-100);
    await expect(rebuildProjections({ db, store, projections: [tally(2)], batchSize: 7 })).rejects.toThrow(/violates check constraint/);
    expect(await tallies()).toEqual(live);
    const checkpoint = await db.query<{ version: number }>(`SELECT version FROM quire_projections WHERE name = 'tally'`);
    expect(checkpoint.rows).toEqual([{ version: 1 }]);
    expect(await openTransactions()).toBe(0);
    // The same pool rebuilds again once the history is fixed.
    await db.query(`TRUNCATE quire_events`);
    await seed();
    await rebuildProjection({ db, store, projection: tally(2), batchSize: 7 });
    expect(await tallies()).toEqual(live);
  });

  it('fails with the error a projection throws in a later batch and leaves no transaction open behind it', async () => {
    await seed();
    const throwing: Projection = {
      ...tally(2),
      async apply(event, tx, t) {
        if (event.type === 'Closed') throw new Error('cannot close this one');
        await tally(2).apply(event, tx, t);
      },
    };
    await expect(rebuildProjections({ db, store, projections: [throwing], batchSize: 7 })).rejects.toThrow('cannot close this one');
    expect(await openTransactions()).toBe(0);
  });
});
