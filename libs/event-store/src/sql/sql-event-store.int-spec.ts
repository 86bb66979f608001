import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { createTestDatabase } from '@quire/test-support/databases';
import { eventStoreContract } from '../contract/event-store.contract';
import { SqlEventStore } from './sql-event-store';

eventStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const db = new PgDb(database.url);
  const store = await SqlEventStore.create(db);
  return {
    store,
    dispose: async () => {
      await db.close();
      await database.drop();
    },
  };
});

eventStoreContract('PGlite', async () => {
  const db = await PgliteDb.open();
  const store = await SqlEventStore.create(db);
  return { store, dispose: () => db.close() };
});

describe('SqlEventStore global order on a fresh store', () => {
  it('orders positions numerically (9 before 10), not as text', async () => {
    const db = await PgliteDb.open();
    try {
      const store = await SqlEventStore.create(db);
      await store.append('s', Array.from({ length: 12 }, (_, i) => ({ type: 'E', data: { i } })), 'no_stream');
      const all = await store.readAll({ commit: 0n, prepare: 0n }, 100);
      expect(all.map((e) => (e.data as { i: number }).i)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect((await store.headPosition()).prepare).toBe(12n);
    } finally {
      await db.close();
    }
  });
});
