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
});
