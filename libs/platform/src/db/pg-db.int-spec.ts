import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../../../../test/support/databases';
import { PgDb } from './pg-db';

describe('PgDb transaction: queries sent without waiting', () => {
  let database: TestDatabase;
  let db: PgDb;
  let inFlight = 0;
  let mostInFlight = 0;
  let calls = 0;

  beforeAll(async () => {
    database = await createTestDatabase('quire_pgdb');
    db = new PgDb(database.url, { max: 2 });
    await db.exec('CREATE TABLE t (id serial PRIMARY KEY, n int NOT NULL)');
    // Counts queries handed to pg's Client and not yet answered: more than one at a time means
    // pg's own queue held one, which is deprecated and goes in pg 9.
    const original = Client.prototype.query;
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      calls++;
      const result = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        result.then(
          () => inFlight--,
          () => inFlight--,
        );
      }
      return result;
    } as typeof original);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await db.close();
    await database.drop();
  });
  beforeEach(() => (mostInFlight = 0));

  it('run in the order they were made, one at a time, and commit after them', async () => {
    await db.transaction(async (tx) => {
      const sent = [1, 2, 3, 4, 5].map((n) => tx.query('INSERT INTO t (n) VALUES ($1)', [n]));
      sent.forEach((p) => p.catch(() => undefined));
      const seen = await tx.query<{ n: number }>('SELECT n FROM t ORDER BY id');
      expect(seen.rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
      // Two more left unanswered when the function returns: COMMIT still comes after them.
      tx.query('INSERT INTO t (n) VALUES (6)').catch(() => undefined);
      tx.query('INSERT INTO t (n) VALUES (7)').catch(() => undefined);
    });
    expect((await db.query<{ n: number }>('SELECT n FROM t ORDER BY id')).rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(mostInFlight).toBe(1);
  });

  it('a failed query fails the ones behind it as the aborted transaction says, and nothing is committed', async () => {
    const before = (await db.query<{ c: number }>('SELECT count(*)::int AS c FROM t')).rows[0].c;
    const outcomes: string[] = [];
    await expect(
      db.transaction(async (tx) => {
        const first = tx.query('INSERT INTO t (n) VALUES (100)');
        const failing = tx.query('INSERT INTO t (n) VALUES (NULL)');
        const behind = tx.query('INSERT INTO t (n) VALUES (101)');
        await first.then(() => outcomes.push('first ok'));
        await failing.catch((err) => outcomes.push(`failing ${err.code}`));
        await behind.catch((err) => outcomes.push(`behind ${err.code}`));
        throw new Error('give up');
      }),
    ).rejects.toThrow('give up');
    expect(outcomes).toEqual(['first ok', 'failing 23502', 'behind 25P02']);
    expect((await db.query<{ c: number }>('SELECT count(*)::int AS c FROM t')).rows[0].c).toBe(before);
    expect(mostInFlight).toBe(1);
  });

  it('asyncCommit: the transaction runs with synchronous_commit off, set in the round trip of its BEGIN', async () => {
    calls = 0;
    const inside = await db.transaction((tx) => tx.query<{ synchronous_commit: string }>('SHOW synchronous_commit'), { asyncCommit: true });
    expect(inside.rows[0].synchronous_commit).toBe('off');
    expect(calls).toBe(3);
    // SET LOCAL: the connection goes back to the pool with its own setting.
    const after = await Promise.all([1, 2].map(() => db.transaction((tx) => tx.query<{ synchronous_commit: string }>('SHOW synchronous_commit'))));
    expect(after.map((r) => r.rows[0].synchronous_commit)).toEqual(['on', 'on']);
  });
});
