import { Db, Queryable } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { scriptRunner } from './rebuild';
import { RowsWritten, rowWrite, WriteBatchingQueryable } from './write-batching';

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

const ROUNDS_TABLES = `
  CREATE TABLE IF NOT EXISTS wb_rows (
    id text PRIMARY KEY, n int, big bigint, flag boolean, at timestamptz, tags text[], doc jsonb, bytes bytea, note text, counter int NOT NULL DEFAULT 0);
  CREATE TABLE IF NOT EXISTS wb_members (org text NOT NULL, member text NOT NULL, role text NOT NULL, PRIMARY KEY (org, member));
  CREATE TABLE IF NOT EXISTS wb_hosts (id text PRIMARY KEY, host text UNIQUE, label text);
  CREATE TABLE IF NOT EXISTS wb_tree (id text PRIMARY KEY, chain text[] NOT NULL, depth int NOT NULL, label text, note text)`;

/**
 * Many writes to few rows, in an order where it matters: inserts before and after updates of the
 * same row, counters moved several times, last-writer-wins columns, a delete and re-insert, a
 * write keyed on another column, a barrier reading other rows, writes that look up other rows
 * (a node takes its chain from its parent, inserted and relabelled in the same batch, and a note
 * from a row of another table), and a read in the middle.
 */
async function applyRowWrites(tx: { query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> }): Promise<unknown> {
  const ids = ['a', 'b', 'c', "d'quote", 'e'];
  for (let step = 0; step < 40; step++) {
    const id = ids[(step * 7) % ids.length];
    await tx.query(`INSERT INTO wb_rows (id, n, at, tags, doc) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`, [id, step, new Date(Date.UTC(2026, 0, 1, 0, step)), [id, 'x'], JSON.stringify({ step })]);
    await tx.query(`UPDATE wb_rows SET counter = counter + $2, note = coalesce(note, '') || $3 WHERE id = $1`, [id, step, `${step},`]);
    if (step % 3 === 0) await tx.query(`UPDATE wb_rows SET n = $2, at = greatest(at, $3) WHERE id = $1`, [ids[step % ids.length], step * 10, new Date(Date.UTC(2026, 0, 1, 1, step))]);
    if (step % 5 === 0) await tx.query(`INSERT INTO wb_members (org, member, role) VALUES ($1, $2, $3) ON CONFLICT (org, member) DO UPDATE SET role = EXCLUDED.role`, [id, `m${step % 4}`, `r${step}`]);
    if (step % 7 === 0) await tx.query(`DELETE FROM wb_members WHERE org = $1 AND member = $2`, [id, `m${(step + 1) % 4}`]);
    if (step % 11 === 0) await tx.query(`DELETE FROM wb_rows WHERE id = $1`, [ids[(step + 1) % ids.length]]);
    // Keyed on another column of the same table.
    if (step % 13 === 0) await tx.query(`UPDATE wb_members SET role = $2 WHERE member = $1`, ['m1', `again${step}`]);
    // A unique value handed from row to row: the row giving it up must do so first.
    // (The new holder's write comes in an earlier round than the old holder's.)
    if (step % 10 === 0) {
      await tx.query(`INSERT INTO wb_hosts (id, label) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET label = EXCLUDED.label`, [`h${step}`, `l${step}`]);
      for (const label of ['handing', 'over']) await tx.query(`UPDATE wb_hosts SET label = $2 WHERE id = $1`, [`h${step - 10}`, label]);
      await tx.query(`UPDATE wb_hosts SET host = NULL WHERE id = $1 AND host = $2`, [`h${step - 10}`, 'shared']);
      await tx.query(`UPDATE wb_hosts SET host = $2 WHERE id = $1`, [`h${step}`, 'shared']);
    }
    // Lookups: the parent was inserted a few steps ago and is relabelled after each child.
    const parent = step > 0 ? `n${Math.floor((step - 1) / 2)}` : null;
    await tx.query(
      `INSERT INTO wb_tree (id, chain, depth, label, note)
       VALUES ($1, ARRAY[$1]::text[] || coalesce((SELECT chain FROM wb_tree WHERE id = $2), '{}'::text[]),
               coalesce((SELECT depth + 1 FROM wb_tree WHERE id = $2), 0), (SELECT label FROM wb_tree WHERE id = $2), (SELECT note FROM wb_rows WHERE id = $3))
       ON CONFLICT (id) DO NOTHING`,
      [`n${step}`, parent, id],
    );
    if (parent) await tx.query(`UPDATE wb_tree SET label = $2 WHERE id = $1`, [parent, `after n${step}`]);
    if (step % 4 === 0) await tx.query(`UPDATE wb_tree SET depth = coalesce((SELECT depth FROM wb_tree WHERE id = $2), -1) + 100 WHERE id = $1`, [`n${step}`, parent]);
    // A barrier: reads other rows.
    if (step % 9 === 0) await tx.query(`UPDATE wb_rows SET big = (SELECT sum(counter) FROM wb_rows) WHERE id = $1`, [id]);
  }
  const seen = await tx.query(`SELECT sum(counter)::int AS n FROM wb_rows`);
  await tx.query(`UPDATE wb_rows SET flag = $2 WHERE id = $1`, ['a', true]);
  return seen.rows[0].n;
}

async function contents(db: Db): Promise<unknown[]> {
  return (await db.query(`SELECT id, n, big::text AS big, flag, at, tags, doc, encode(bytes, 'hex') AS bytes, note, counter FROM wb_rows ORDER BY id`)).rows;
}

/**
 * Successive updates of the same rows, of the shapes that fold (values, constants, counters,
 * `greatest`) and of others that do not, with NULLs, a lookup and an update by another key between
 * them: every intermediate state a lookup reads and every final value must be as if run one by one.
 */
async function applyFoldableWrites(tx: { query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> }): Promise<unknown> {
  const ids = ['a', 'b', 'c'];
  for (const id of ids) await tx.query(`INSERT INTO wb_rows (id, n, at, note) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`, [id, 1, '2026-01-01T00:00:00Z', 'start']);
  await tx.query(`INSERT INTO wb_rows (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, ['nulls']);
  for (let step = 0; step < 30; step++) {
    const id = ids[step % ids.length];
    await tx.query(`UPDATE wb_rows SET counter = counter + $2, n = n + $3 WHERE id = $1`, [id, step, -1]);
    await tx.query(`UPDATE wb_rows SET counter = counter + $2 WHERE id = $1`, ['nulls', 1]);
    // Later and earlier instants, in other zones, as Dates and strings, and NULL.
    const at = [new Date(Date.UTC(2026, 0, 1, step % 7)), `2026-01-01T0${step % 5}:30:00+02:00`, null][step % 3];
    await tx.query(`UPDATE wb_rows SET at = greatest(at, $2), big = $3 WHERE id = $1`, [id, at, step]);
    if (step % 4 === 0) await tx.query(`UPDATE wb_rows SET n = $2, flag = TRUE, note = 'it''s set' WHERE id = $1`, [id, step * 100]);
    if (step % 6 === 0) await tx.query(`UPDATE wb_rows SET n = NULL, at = $2 WHERE id = $1`, [id, step % 12 === 0 ? null : '2025-12-31T23:59:59.999Z']);
    if (step % 5 === 0) await tx.query(`UPDATE wb_rows SET note = coalesce(note, '') || $2 WHERE id = $1`, [id, `${step},`]);
    // A set of tags in first-seen order: elements already there, new ones, NULL, after a known array or not.
    await tx.query(`UPDATE wb_rows SET tags = CASE WHEN $2 = ANY(tags) THEN tags ELSE tags || $2::text END WHERE id = $1`, [id, step % 8 === 7 ? null : `t${step % 4}`]);
    if (step % 8 === 3) await tx.query(`UPDATE wb_rows SET tags = $2 WHERE id = $1`, [id, step % 16 === 3 ? ['t1', 'it\'s "q"'] : null]);
    // A lookup reads the row as the updates so far left it.
    if (step % 7 === 0) {
      await tx.query(
        `INSERT INTO wb_tree (id, chain, depth, label, note) VALUES ($1, '{}', coalesce((SELECT counter FROM wb_rows WHERE id = $2), -1), (SELECT note FROM wb_rows WHERE id = $2), $3) ON CONFLICT (id) DO NOTHING`,
        [`t${step}`, id, 'x'],
      );
    }
    if (step % 9 === 0) await tx.query(`UPDATE wb_rows SET at = greatest(at, $2) WHERE id = $1`, ['nulls', '2026-02-01T00:00:00Z']);
  }
  return 0;
}

const INSERT_FOLD_TABLES = `
  CREATE TABLE IF NOT EXISTS wb_rows (
    id text PRIMARY KEY, n int, big bigint, flag boolean, at timestamptz, tags text[], doc jsonb, bytes bytea, note text, counter int NOT NULL DEFAULT 0);
  CREATE TABLE IF NOT EXISTS wb_plain (id text PRIMARY KEY, label text NOT NULL, at timestamptz)`;

/**
 * Rows inserted and then updated in shapes that fold into the INSERT (values, counters, later
 * instants, an added element, a column the INSERT left to its default), and in one that does not
 * (a delta of a defaulted column); some rows inserted twice (the second INSERT does nothing and its
 * updates apply to the first row), and `existing` rows there before the batch.
 */
async function applyInsertFolds(tx: { query(sql: string, params?: unknown[]): Promise<{ rows: any[] }> }, existing: string[]): Promise<void> {
  for (let i = 0; i < 14; i++) {
    const id = i < existing.length ? existing[i] : `new${i % 6}`;
    await tx.query(`INSERT INTO wb_rows (id, n, at, tags, counter) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`, [id, i, '2026-01-02T00:00:00Z', i % 5 === 0 ? ['t1'] : [], 0]);
    await tx.query(`UPDATE wb_rows SET counter = counter + $2, n = n + $3 WHERE id = $1`, [id, i, 1]);
    await tx.query(`UPDATE wb_rows SET at = greatest(at, $2), note = $3 WHERE id = $1`, [id, `2026-01-0${1 + (i % 3)}T00:00:00Z`, `note ${i}`]);
    await tx.query(`UPDATE wb_rows SET tags = CASE WHEN $2 = ANY(tags) THEN tags ELSE tags || $2::text END WHERE id = $1`, [id, `t${i % 2}`]);
    if (i % 4 === 0) await tx.query(`UPDATE wb_rows SET big = big + $2, flag = $3 WHERE id = $1`, [id, 5, true]);
    await tx.query(`UPDATE wb_rows SET counter = counter + $2 WHERE id = $1`, [id, 100]);
    // Without ON CONFLICT.
    await tx.query(`INSERT INTO wb_plain (id, label) VALUES ($1, $2)`, [`p${i}`, 'x']);
    await tx.query(`UPDATE wb_plain SET label = $2, at = $3 WHERE id = $1`, [`p${i}`, `y${i}`, new Date(Date.UTC(2026, 0, i + 1))]);
  }
}

describe('rowWrite', () => {
  it('finds the key of writes that touch only rows of one key, and nothing in writes that may touch others', () => {
    expect(rowWrite(`UPDATE s.t SET a = a + $2 WHERE id = $1`)).toEqual({ table: 's.t', column: 'id', param: 0, lookups: [], equalities: [{ table: 's.t', column: 'id', param: 0 }] });
    expect(rowWrite(`UPDATE t x SET a = $1 WHERE x.id = $2 AND b = 'c'`)).toEqual({ table: 't', column: 'id', param: 1, lookups: [], equalities: [{ table: 't', column: 'id', param: 1 }] });
    // Every `column = $n` term of the condition and every conflict target column: they may name the row together (a composite key).
    expect(rowWrite(`DELETE FROM t WHERE org = $1 AND member = $2`)).toEqual({
      table: 't', column: 'org', param: 0, lookups: [], equalities: [{ table: 't', column: 'org', param: 0 }, { table: 't', column: 'member', param: 1 }],
    });
    expect(rowWrite(`INSERT INTO t AS c (a, b) VALUES ($2, $1) ON CONFLICT (b, a) DO UPDATE SET a = c.a + 1`)).toEqual({
      table: 't', column: 'b', param: 0, conflictTarget: true, lookups: [], equalities: [{ table: 't', column: 'b', param: 0 }, { table: 't', column: 'a', param: 1 }],
    });
    expect(rowWrite(`INSERT INTO t (a, b) VALUES ($1, 2) ON CONFLICT (a, b) DO NOTHING`)).toEqual({
      table: 't', column: 'a', param: 0, conflictTarget: true, lookups: [], equalities: [{ table: 't', column: 'a', param: 0 }],
    });
    expect(rowWrite(`INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT ((lower(a))) DO NOTHING`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = CASE WHEN $2 IS NULL OR $2 = b THEN 1 END WHERE id = $1`)).toEqual({ table: 't', column: 'id', param: 0, lookups: [], equalities: [{ table: 't', column: 'id', param: 0 }] });
    // Lookups: single rows read by one key parameter.
    expect(rowWrite(`INSERT INTO t (id, depth) VALUES ($1, coalesce((SELECT depth + 1 FROM s.t WHERE id = $3), 1)) ON CONFLICT (id) DO NOTHING`)).toEqual({
      table: 't', column: 'id', param: 0, conflictTarget: true, lookups: [{ table: 's.t', column: 'id', param: 2 }], equalities: [{ table: 't', column: 'id', param: 0 }],
    });
    expect(rowWrite(`UPDATE t SET a = (SELECT b FROM u WHERE k = $2) WHERE id = $1`)).toEqual({
      table: 't', column: 'id', param: 0, lookups: [{ table: 'u', column: 'k', param: 1 }], equalities: [{ table: 't', column: 'id', param: 0 }],
    });
    expect(rowWrite(`UPDATE t SET a = (SELECT b FROM u WHERE k = $2 AND c = 1) WHERE id = $1`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = (SELECT max(b) FROM u WHERE k = $2) WHERE id = $1`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = (SELECT b FROM u WHERE k = $2 OR true) WHERE id = $1`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = 1 WHERE id = $1 OR b = $2`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = 1 WHERE id = $1 + 1`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = (SELECT max(a) FROM t) WHERE id = $1`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = u.a FROM u WHERE id = $1`)).toBeUndefined();
    expect(rowWrite(`UPDATE t SET a = '$1' WHERE id = $1`)).toBeUndefined();
    expect(rowWrite(`INSERT INTO t (a, b) SELECT $1, b FROM u ON CONFLICT (a) DO NOTHING`)).toBeUndefined();
    expect(rowWrite(`INSERT INTO t (a, b) VALUES (lower($1), $2) ON CONFLICT (a) DO NOTHING`)).toBeUndefined();
    expect(rowWrite(`DELETE FROM t USING u WHERE t.id = $1`)).toBeUndefined();
  });
});

describe.each([
  ['PostgreSQL', async () => {
    const database = await createTestDatabase();
    return { db: new PgDb(database.url) as Db, database };
  }],
  ['PGlite', async () => ({ db: (await PgliteDb.open()) as Db, database: undefined as TestDatabase | undefined })],
])('WriteBatchingQueryable on %s', (_label, open) => {
  // One database for the file's tests (a fresh PGlite took 13-19 s of this suite's time each,
  // under load); each test starts from an empty schema, as it did on a database of its own.
  let db: Db;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    ({ db, database } = await open());
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });
  beforeEach(() => db.exec(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`));

  it('leaves the same rows as the statements run one by one with parameters', async () => {
    await db.exec(TABLE);
    const seenDirect = await db.transaction((tx) => applyWrites(tx));
    const direct = await contents(db);
    await db.exec(`DROP TABLE wb_rows; ${TABLE}`);
    const { result: seenBatched } = await batched(db, applyWrites, { maxStatements: 3 });
    expect(seenBatched).toBe(seenDirect);
    expect(await contents(db)).toEqual(direct);
    expect(direct).toHaveLength(4);
  });

  it('leaves the same rows as the statements run one by one when it runs many writes to the same rows set-based', async () => {
    const rows = async () => ({
      rows: (await db.query(`SELECT id, n, big::text AS big, flag, at, tags, doc, note, counter FROM wb_rows ORDER BY id`)).rows,
      members: (await db.query(`SELECT * FROM wb_members ORDER BY org, member`)).rows,
      hosts: (await db.query(`SELECT * FROM wb_hosts ORDER BY id`)).rows,
      tree: (await db.query(`SELECT * FROM wb_tree ORDER BY id`)).rows,
    });
    await db.exec(ROUNDS_TABLES);
    const seenDirect = await db.transaction((tx) => applyRowWrites(tx));
    const direct = await rows();
    await db.exec(`DROP TABLE wb_rows; DROP TABLE wb_members; DROP TABLE wb_hosts; DROP TABLE wb_tree; ${ROUNDS_TABLES}`);
    const { result: seenBatched, scripts } = await batched(db, applyRowWrites);
    expect(seenBatched).toBe(seenDirect);
    expect(await rows()).toEqual(direct);
    expect(direct.rows.length).toBeGreaterThan(2);
    expect(direct.members.length).toBeGreaterThan(2);
    expect(direct.tree.length).toBe(40);
    // It did run writes set-based, lookups too: over unnested arrays, a parameter that is itself
    // an array (wb_rows.tags) as the text of each array, cast back.
    expect(scripts.join('\n')).toMatch(/INSERT INTO wb_rows [^;]*quire_batch\.p4::text\[\][^;]*FROM unnest\(/);
    expect(scripts.join('\n')).toMatch(/UPDATE wb_rows SET counter = counter \+ quire_batch\.p2[^;]*FROM unnest\('[^;]*'::integer\[\]/);
    expect(scripts.join('\n')).toMatch(/INSERT INTO wb_tree [^;]*SELECT chain FROM wb_tree WHERE id = quire_batch\.p2[^;]*FROM unnest\(/);
  });

  it("writes the rows of a composite key (an organization's members) in one statement per round, not one round per row sharing the key's first column", async () => {
    const members = async () => (await db.query(`SELECT * FROM wb_members ORDER BY org, member`)).rows;
    const write = async (tx: { query(sql: string, params?: unknown[]): Promise<unknown> }) => {
      const set = `INSERT INTO wb_members (org, member, role) VALUES ($1, $2, $3) ON CONFLICT (org, member) DO UPDATE SET role = EXCLUDED.role`;
      for (const org of ['o1', 'o2']) for (let m = 0; m < 10; m++) await tx.query(set, [org, `m${m}`, m === 0 ? 'admin' : 'edit']);
      for (const org of ['o1', 'o2']) await tx.query(`DELETE FROM wb_members WHERE org = $1 AND member = $2`, [org, 'm3']);
      // The same row again: a later round.
      await tx.query(set, ['o1', 'm1', 'review']);
    };
    await db.exec(ROUNDS_TABLES);
    await db.transaction(write);
    const direct = await members();
    await db.exec(`DROP TABLE wb_members; ${ROUNDS_TABLES}`);
    const { scripts } = await batched(db, write);
    expect(await members()).toEqual(direct);
    expect(direct).toHaveLength(18);
    const statements = scripts.join(';\n').split(';\n').map((x) => x.trim());
    // Round 1: the 20 rows; round 2: the two deletes, and the row set again.
    expect(statements.filter((x) => x.startsWith('INSERT INTO wb_members'))).toHaveLength(2);
    expect(statements.filter((x) => x.startsWith('DELETE FROM wb_members'))).toHaveLength(1);
  });

  it('leaves the same rows as the statements run one by one when it folds successive updates of a row', async () => {
    const rows = async () => ({
      rows: (await db.query(`SELECT id, n, big::text AS big, flag, at, tags, note, counter FROM wb_rows ORDER BY id`)).rows,
      tree: (await db.query(`SELECT * FROM wb_tree ORDER BY id`)).rows,
    });
    await db.exec(ROUNDS_TABLES);
    await db.transaction((tx) => applyFoldableWrites(tx));
    const direct = await rows();
    await db.exec(`DROP TABLE wb_rows; DROP TABLE wb_members; DROP TABLE wb_hosts; DROP TABLE wb_tree; ${ROUNDS_TABLES}`);
    const { scripts } = await batched(db, applyFoldableWrites);
    expect(await rows()).toEqual(direct);
    expect(direct.tree).toHaveLength(5);
    // Folded: far fewer UPDATE statements reach the database than the 100-odd issued.
    const updates = scripts.join('\n').match(/UPDATE wb_rows/g) ?? [];
    expect(updates.length).toBeLessThan(40);
  });

  it('holds a recomputation with the batch instead of ending the batch there, and leaves the same rows', async () => {
    const tables = `
      CREATE TABLE IF NOT EXISTS wb_nodes (id text PRIMARY KEY, chain text[] NOT NULL, level text NOT NULL, resolved text NOT NULL);
      CREATE TABLE IF NOT EXISTS wb_members (org text NOT NULL, member text NOT NULL, role text NOT NULL, PRIMARY KEY (org, member))`;
    const nodes = () => db.query(`SELECT * FROM wb_nodes ORDER BY id`).then((r) => r.rows);
    // The permissions projection's shape: a node takes its parent's chain and resolved level; a
    // level change recomputes the resolved level of every node under it.
    const apply = async (tx: { query(sql: string, params?: unknown[], opts?: { recompute?: boolean }): Promise<unknown> }) => {
      const insert = (id: string, parent: string | null, level: string) =>
        tx.query(
          `INSERT INTO wb_nodes (id, chain, level, resolved)
           VALUES ($1, ARRAY[$1]::text[] || coalesce((SELECT chain FROM wb_nodes WHERE id = $2), '{}'::text[]), $3,
                   CASE WHEN $3 <> 'inherit' THEN $3 ELSE coalesce((SELECT resolved FROM wb_nodes WHERE id = $2), 'inherit') END)
           ON CONFLICT (id) DO NOTHING`,
          [id, parent, level],
        );
      const setLevel = async (id: string, level: string) => {
        await tx.query(`UPDATE wb_nodes SET level = $2 WHERE id = $1`, [id, level]);
        await tx.query(
          `UPDATE wb_nodes n SET resolved = coalesce(
             (SELECT a.level FROM unnest(n.chain) WITH ORDINALITY AS x(id, ord) JOIN wb_nodes a ON a.id = x.id
               WHERE a.level <> 'inherit' ORDER BY x.ord LIMIT 1), 'inherit')
           WHERE n.chain @> ARRAY[$1]::text[]`,
          [id],
          { recompute: true },
        );
      };
      for (let o = 0; o < 3; o++) {
        await insert(`c${o}`, null, 'inherit');
        await insert(`c${o}-a`, `c${o}`, 'inherit');
        await tx.query(`INSERT INTO wb_members (org, member, role) VALUES ($1, $2, $3) ON CONFLICT (org, member) DO UPDATE SET role = EXCLUDED.role`, [`o${o}`, 'm', 'r']);
        await setLevel(`c${o}`, 'read');
        // Inserted after the change, below a node whose resolved level the batch has not recomputed yet.
        await insert(`s${o}`, `c${o}-a`, 'inherit');
        await insert(`s${o}-own`, `c${o}-a`, 'edit');
        if (o === 1) await setLevel(`c${o}`, 'comment');
        if (o === 2) await setLevel(`c${o}-a`, 'review');
      }
    };
    await db.exec(tables);
    await db.transaction((tx) => apply(tx));
    const direct = await nodes();
    await db.exec(`DROP TABLE wb_nodes; DROP TABLE wb_members; ${tables}`);
    const { scripts } = await batched(db, apply);
    expect(await nodes()).toEqual(direct);
    expect(direct.find((n: any) => n.id === 's1')?.resolved).toBe('comment');
    expect(direct.find((n: any) => n.id === 's2')?.resolved).toBe('review');
    const script = scripts.join('\n');
    // One statement for all three organizations' members: the recomputations did not end the batch.
    expect(script.match(/INSERT INTO wb_members/g)).toHaveLength(1);
    // Each recomputation once, after the rows around it: one statement over the nodes whose level changed.
    expect(script.match(/UPDATE wb_nodes n SET resolved/g)).toHaveLength(1);
    expect(script).toMatch(/FROM unnest\('\{"c0","c1","c2","c2-a"\}'::text\[\]\) AS quire_batch\(p1\)\s+WHERE n\.chain @> ARRAY\[quire_batch\.p1\]/);
    expect(script.lastIndexOf('INSERT INTO wb_nodes')).toBeLessThan(script.indexOf('UPDATE wb_nodes n SET resolved'));
  });

  it.each([
    ['rows there before, nothing known of the table', false],
    ['tables created empty, the rows written so far known (a rebuild)', true],
  ])('leaves the same rows as the statements run one by one when updates fold into the INSERT before them: %s', async (_case, empty) => {
    const existing = empty ? [] : ['old0', 'old1', 'new3'];
    const rows = async () => ({
      rows: (await db.query(`SELECT id, n, big::text AS big, flag, at, tags, note, counter FROM wb_rows ORDER BY id`)).rows,
      plain: (await db.query(`SELECT * FROM wb_plain ORDER BY id`)).rows,
    });
    const setUp = async () => {
      await db.exec(`DROP TABLE IF EXISTS wb_rows; DROP TABLE IF EXISTS wb_plain; ${INSERT_FOLD_TABLES}`);
      for (const id of existing) await db.query(`INSERT INTO wb_rows (id, n, at, tags, note, counter) VALUES ($1, 7, '2026-01-05T00:00:00Z', '{t0}', 'before', 3)`, [id]);
    };
    await setUp();
    await db.transaction((tx) => applyInsertFolds(tx, existing));
    const direct = await rows();
    await setUp();
    const { scripts } = await batched(db, (q) => applyInsertFolds(q, existing), { written: empty ? new RowsWritten() : undefined });
    expect(await rows()).toEqual(direct);
    expect(direct.rows).toHaveLength(6 + existing.filter((id) => !id.startsWith('new')).length);
    expect(direct.plain).toHaveLength(14);
    const script = scripts.join('\n');
    // The INSERT names the columns its updates assigned, and carries what they left.
    expect(script).toMatch(/INSERT INTO wb_rows \(id, n, at, tags, counter, note\) SELECT/);
    expect(script).toMatch(/INSERT INTO wb_plain \(id, label, at\) SELECT/);
    expect(script).not.toMatch(/UPDATE wb_plain/);
    // Updates for a row that was there run only where one may be: for the four rows inserted a
    // second time, not for rows known to be new.
    const updates = script.match(/UPDATE wb_rows SET counter = counter \+ [^,]+, n = n \+/g) ?? [];
    if (empty) expect(updates.length).toBeLessThanOrEqual(4);
    else expect(updates.length).toBeGreaterThan(0);
  });
});

/**
 * Runs `write` in a transaction of `db` through a WriteBatchingQueryable (at most `maxStatements`
 * held; `written`: tables a rebuild created empty) and answers what `write` returned and every
 * script the batching sent.
 */
async function batched<T>(db: Db, write: (q: Queryable) => Promise<T>, opts: { maxStatements?: number; written?: RowsWritten } = {}): Promise<{ result: T; scripts: string[] }> {
  const scripts: string[] = [];
  const result = await db.transaction(async (tx) => {
    const run = scriptRunner(tx);
    const batching = new WriteBatchingQueryable(tx, (sql) => (scripts.push(sql), run(sql)), opts.maxStatements, undefined, undefined, opts.written);
    const seen = await write(batching);
    await batching.flush();
    return seen;
  });
  return { result, scripts };
}
