import type { Db } from './db';
import { openDbOfKind } from '@quire/test-support/db-of-kind';
import { statisticsOutgrown } from './table-statistics';

describe.each(['postgres', 'pglite'] as const)('statisticsOutgrown (%s)', (kind) => {
  let db: Db;
  let close: (() => Promise<void>) | undefined;
  const insert = (from: number, count: number) => db.query(`INSERT INTO t (n) SELECT g FROM generate_series($1::int, $2::int) AS g`, [from, from + count - 1]);

  // One database for the file's tests (a fresh one took several seconds each, a PGlite most);
  // each test gets a table t of its own, with no statistics yet.
  beforeAll(async () => {
    ({ db, close } = await openDbOfKind(kind, 'quire_stats'));
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(() => db.exec('DROP TABLE IF EXISTS t; CREATE TABLE t (n int)'));

  it('is true for a table never analyzed, or analyzed while empty', async () => {
    expect(await statisticsOutgrown(db, 't', 1000)).toBe(true);
    await db.exec('ANALYZE t');
    expect(await statisticsOutgrown(db, 't', 1000)).toBe(true);
  });

  it('is false while the change stays within a tenth of the rows last analyzed, true past it', async () => {
    await insert(1, 10_000);
    await db.exec('ANALYZE t');
    expect(await statisticsOutgrown(db, 't', 900)).toBe(false);
    expect(await statisticsOutgrown(db, 't', 1100)).toBe(true);
  });

  it('takes another share when asked: "more than doubled since" is a scale factor of 1', async () => {
    await insert(1, 1000);
    await db.exec('ANALYZE t');
    expect(await statisticsOutgrown(db, 't', 900, 1)).toBe(false);
    expect(await statisticsOutgrown(db, 't', 1100, 1)).toBe(true);
  });

  it('counts a table it cannot find as never analyzed', async () => {
    expect(await statisticsOutgrown(db, 'no_such_table', 10)).toBe(true);
  });
});
