import type { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { createTestDatabase } from './databases';

/**
 * A database of either kind for a spec that runs on both: a fresh PostgreSQL database (`prefix`
 * names it), dropped at `close`, or an in-memory PGlite.
 */
export async function openDbOfKind(kind: 'postgres' | 'pglite', prefix: string): Promise<{ db: Db; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const db = await PgliteDb.open();
    return { db, close: () => db.close() };
  }
  const database = await createTestDatabase(prefix);
  const db = new PgDb(database.url);
  return {
    db,
    async close() {
      await db.close();
      await database.drop();
    },
  };
}
