import { Client } from 'pg';
import { randomBytes } from 'crypto';

/** Where the integration tiers find PostgreSQL and Redis (the machine's real services). */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh database per test file, so suites run in parallel without seeing each other; a copy of
 * `template` (a benchmark's seeded database, which nothing may be connected to) when given.
 */
export async function createTestDatabase(prefix = 'quire_t', opts: { template?: string } = {}): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${opts.template ? ` TEMPLATE ${admin.escapeIdentifier(opts.template)}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: TEST_POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export function uniquePrefix(label: string): string {
  return `qt-${label}-${randomBytes(4).toString('hex')}`;
}
