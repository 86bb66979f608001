import { mkdirSync } from 'fs';
import { join } from 'path';
import { Db } from './db';
import { PgDb } from './pg-db';
import { PgliteDb } from './pglite-db';

/** PostgreSQL when a URL is configured, otherwise embedded PGlite under DATA_DIR. */
export async function openDb(opts: { databaseUrl?: string; dataDir: string; poolSize?: number; applicationName?: string }): Promise<Db> {
  if (opts.databaseUrl) {
    return new PgDb(opts.databaseUrl, { max: opts.poolSize, applicationName: opts.applicationName });
  }
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return PgliteDb.open(dir);
}
