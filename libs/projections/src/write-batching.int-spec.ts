import { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { ScriptQueryable, WriteBatchingQueryable } from './write-batching';

const TABLE = `CREATE TABLE IF NOT EXISTS wb_rows (
  id text PRIMARY KEY, n int, big bigint, flag boolean, at timestamptz, tags text[], doc jsonb, bytes bytea, note text, counter int NOT NULL DEFAULT 0)`;

/** Writes with every kind of parameter a projection passes, and a read in between that must see them. */
async function applyWrites(tx: { query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> }): Promise<unknown> {
  const rows: unknown[][] = [
    ['plain', 1, 2, true, '2026-01-02T03:04:05.678Z', ['a', 'b'], JSON.stringify({ k: 'v' }), Buffer.from([0, 1, 254, 255]), "it's"],
    ['quotes "and" \\ backslashes', -5, '9007199254740993', false, new Date('2026-05-06T07:08:09Z'), ['with "quote"', 'back\\slash', 'com,ma', "apo'strophe", 'NULL', ''], JSON.stringify({ s: "'; DROP TABLE wb_rows; --" }), Buffer.alloc(0), '$1 $2 $10'],
    ['nulls', null, null, null, '2026-01-01T00:00:00Z', [], 'null', null, undefined],
    ['unicode ✓ 😀', 0, 0, true, '2026-01-01T00:00:00+02:00', ['ü', '日本'], JSON.stringify(['x', 1, null]), Buffer.from('héllo'), 'line\nbreak\ttab'],
  ];
  for (const r of rows) {
    await tx.query(`INSERT INTO wb_rows (id, n, big, flag, at, tags, doc, bytes, note) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT (id) DO NOTHING`, r);
  }
  await tx.query(`UPDATE wb_rows SET counter = counter + $2, tags = tags || $3::text WHERE id = $1`, ['plain', 3, 'c']);
  const seen = await tx.query(`SELECT count(*)::int AS n FROM wb_rows WHERE note IS NOT NULL OR note IS NULL`);
  await tx.query(`UPDATE wb_rows SET counter = counter + $2 WHERE id = $1 AND $3::boolean`, ['nulls', seen.rows[0].n, true]);
  await tx.query(`DELETE FROM wb_rows WHERE id = $1 AND NOT $2`, ['nothing', false]);
  return seen.rows[0].n;
}

async function contents(db: Db): Promise<unknown[]> {
  return (await db.query(`SELECT id, n, big::text AS big, flag, at, tags, doc, encode(bytes, 'hex') AS bytes, note, counter FROM wb_rows ORDER BY id`)).rows;
}

describe.each([
  ['PostgreSQL', async () => {
    const database = await createTestDatabase();
    return { db: new PgDb(database.url) as Db, database };
  }],
  ['PGlite', async () => ({ db: (await PgliteDb.open()) as Db, database: undefined as TestDatabase | undefined })],
])('WriteBatchingQueryable on %s', (_label, open) => {
  it('leaves the same rows as the statements run one by one with parameters', async () => {
    const { db, database } = await open();
    try {
      await db.exec(TABLE);
      const seenDirect = await db.transaction((tx) => applyWrites(tx));
      const direct = await contents(db);
      await db.exec(`DROP TABLE wb_rows; ${TABLE}`);
      const seenBatched = await db.transaction(async (tx) => {
        const exec = (tx as Partial<ScriptQueryable>).exec;
        const batching = new WriteBatchingQueryable(tx, exec ? (sql) => exec.call(tx, sql) : async (sql) => void (await tx.query(sql)), 3);
        const seen = await applyWrites(batching);
        await batching.flush();
        return seen;
      });
      expect(seenBatched).toBe(seenDirect);
      expect(await contents(db)).toEqual(direct);
      expect(direct).toHaveLength(4);
    } finally {
      await db.close();
      await database?.drop();
    }
  });
});
