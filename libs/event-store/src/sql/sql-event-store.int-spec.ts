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
