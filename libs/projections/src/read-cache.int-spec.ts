import { PgDb } from '@quire/platform/db/pg-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { Projection } from './projection';
import { ProjectionTimeoutError, Projector } from './projector';
import { ReadCache, ReadCacheFollower } from './read-cache';

/** A read model of the ids of the `Noted` events, applied once `gate` opens. */
const noted = (name: string, gate?: Promise<void>): Projection => ({
  name,
  version: 1,
  tables: [`rm_${name}`],
  handles: ['Noted'],
  schema: (t) => `CREATE TABLE ${t(`rm_${name}`)} (id text PRIMARY KEY);`,
  async apply(event, tx, t) {
    await gate;
    await tx.query(`INSERT INTO ${t(`rm_${name}`)} (id) VALUES ($1) ON CONFLICT DO NOTHING`, [event.id]);
  },
});

describe('ReadCacheFollower', () => {
  let database: TestDatabase;
  let db: PgDb;

  beforeEach(async () => {
    database = await createTestDatabase();
    db = new PgDb(database.url);
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  it('passes an event once the read models its caches load from have applied it, whatever other projections of it still do', async () => {
    const store = await SqlEventStore.create(db);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // `slow` stands for the search index of a large import: seconds behind the others.
    const projector = new Projector(db, store, [noted('fast'), noted('slow', gate)]);
    const follower = new ReadCacheFollower(db, store, projector);
    try {
      await projector.prepare();
      await projector.startObserving();
      await projector.startRunning();
      await follower.observe();
      new ReadCache<{ v: number }>({ name: 'of-fast', max: 10, readModels: ['fast'] }, follower);
      const { position } = await store.append('s1', [{ type: 'Noted', data: {} }], 'no_stream');
      await follower.waitFor(position, 5000);
      await expect(projector.waitForProjections(position, ['slow'], 100)).rejects.toBeInstanceOf(ProjectionTimeoutError);
    } finally {
      open();
      await follower.stop();
      await projector.stop();
    }
  });
});
