import { PgliteDb } from './pglite-db';

describe('PgliteDb', () => {
  let db: PgliteDb;
  beforeAll(async () => {
    db = await PgliteDb.open();
    await db.exec('CREATE TABLE nested_rows (n int)');
  });
  afterAll(() => db?.close());

  it('joins a transaction opened inside another one, scripts too: they commit or roll back with it', async () => {
    const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM nested_rows')).rows[0].n;
    const script = (tx: unknown) => (tx as { exec(sql: string): Promise<void> }).exec('INSERT INTO nested_rows VALUES (1); INSERT INTO nested_rows VALUES (2);');
    const rolledBack = db.transaction(async () => {
      await db.transaction(async (inner) => {
        await script(inner);
        await inner.query('INSERT INTO nested_rows VALUES ($1)', [3]);
      });
      expect(await count()).toBe(3);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await count()).toBe(0);
    await db.transaction(async () => db.transaction(async (inner) => script(inner)));
    expect(await count()).toBe(2);
  }, 15_000);

  describe('named statements (prepared once, run by EXECUTE)', () => {
    const prepared = async () => (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r) => r.name);
    beforeAll(() => db.exec('CREATE TABLE named_rows (id text PRIMARY KEY, n bigint, flag boolean, at timestamptz, tags text[], doc jsonb, note text)'));

    it('give the rows an unnamed statement gives, for every kind of parameter', async () => {
      const values = [
        ['quotes \'and\' "doubles" \\ $1', '9007199254740993', true, new Date('2026-05-06T07:08:09.123Z'), ['a "b"', "c'd", 'NULL', ''], JSON.stringify({ s: "'; DROP TABLE named_rows; --" }), null],
        ['unicode ✓ 😀', -5, false, '2026-01-01T00:00:00+02:00', [], 'null', 'line\nbreak'],
      ];
      const insert = `INSERT INTO named_rows (id, n, flag, at, tags, doc, note) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`;
      const named = [];
      for (const v of values) named.push((await db.query(insert, v, { name: 'named_insert' })).rows[0]);
      await db.exec('DELETE FROM named_rows');
      const plain = [];
      for (const v of values) plain.push((await db.query(insert, v)).rows[0]);
      expect(named).toEqual(plain);
      expect(named[0]).toMatchObject({ id: values[0][0], tags: values[0][4], doc: { s: "'; DROP TABLE named_rows; --" }, note: null });
      expect(await prepared()).toContain('named_insert');
    }, 15_000);

    it('are prepared once for concurrent callers, never inside a transaction, and outlive one that rolls back', async () => {
      const select = 'SELECT count(*)::int AS n FROM named_rows WHERE id <> $1';
      const counts = await Promise.all(Array.from({ length: 5 }, () => db.query<{ n: number }>(select, ['x'], { name: 'named_count' })));
      expect(counts.map((r) => r.rows[0].n)).toEqual([2, 2, 2, 2, 2]);
      const rolledBack = db.transaction(async (tx) => {
        // Not prepared yet: it runs as it is (a PREPARE from outside would queue behind this transaction).
        expect((await tx.query<{ n: number }>('SELECT $1::int + 1 AS n', [1], { name: 'named_in_tx' })).rows[0].n).toBe(2);
        expect(await prepared()).not.toContain('named_in_tx');
        // Prepared already: run by EXECUTE in the transaction.
        await tx.query(`INSERT INTO named_rows (id) VALUES ($1)`, ['rolled back']);
        expect((await tx.query<{ n: number }>(select, ['x'], { name: 'named_count' })).rows[0].n).toBe(3);
        throw new Error('roll back');
      });
      await expect(rolledBack).rejects.toThrow('roll back');
      expect((await db.query<{ n: number }>(select, ['x'], { name: 'named_count' })).rows[0].n).toBe(2);
      expect((await prepared()).filter((n) => n === 'named_count')).toHaveLength(1);
    }, 15_000);

    it('do not wait for a PREPARE queued behind the transaction they run in', async () => {
      const select = 'SELECT $1::text AS v';
      let outside: Promise<unknown> | undefined;
      const inside = await db.transaction(async (tx) => {
        // Issued from outside while the transaction holds PGlite's one session: its PREPARE waits for it.
        outside = db.query(select, ['outside'], { name: 'named_queued' });
        await new Promise((resolve) => setTimeout(resolve, 10));
        return (await tx.query<{ v: string }>(select, ['inside'], { name: 'named_queued' })).rows[0].v;
      });
      expect(inside).toBe('inside');
      expect(((await outside) as { rows: { v: string }[] }).rows[0].v).toBe('outside');
    }, 15_000);

    it('fail as the statement would, and are prepared once it can be', async () => {
      const select = 'SELECT count(*)::int AS n FROM named_later WHERE n > $1';
      await expect(db.query(select, [0], { name: 'named_later' })).rejects.toThrow(/named_later/);
      await db.exec('CREATE TABLE named_later (n int); INSERT INTO named_later VALUES (1), (2)');
      expect((await db.query<{ n: number }>(select, [1], { name: 'named_later' })).rows[0].n).toBe(1);
      expect(await prepared()).toContain('named_later');
    }, 15_000);
  });
});
