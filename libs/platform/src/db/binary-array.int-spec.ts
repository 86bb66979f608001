import { openDbOfKind } from '@quire/test-support/db-of-kind';
import type { Db } from './db';
import { binaryArray, PG_TYPE, textArray } from './binary-array';

describe.each(['postgres', 'pglite'] as const)('binary array parameters (%s)', (kind) => {
  let db: Db;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ db, close } = await openDbOfKind(kind, 'quire_binarray'));
  });
  afterAll(async () => {
    await close?.();
  });

  it('a bytea[] of elements in their binary format, beside a parameter sent as text, inside a transaction', async () => {
    const r = await db.transaction((tx) =>
      tx.query<{ t: string; b: Buffer }>(`SELECT $1::text AS t, x AS b FROM unnest($2::bytea[]) AS x`, ['beside', binaryArray(PG_TYPE.bytea, [new Uint8Array([0, 1, 255])])]),
    );
    expect(r.rows.map((row) => [row.t, [...row.b]])).toEqual([['beside', [0, 1, 255]]]);
  });

  it('a text[] of any characters (quotes, backslashes, braces, commas, newlines, non-ASCII, empty), in order', async () => {
    const values = ['plain', 'say "hi"', 'back\\slash', '{braces}, commas', 'line\nbreak', 'NULL', '', 'héllo 世界 🎉', 'x'.repeat(100_000)];
    const r = await db.query<{ v: string; n: number }>(`SELECT v, n FROM unnest($1::text[]) WITH ORDINALITY AS x(v, n) ORDER BY n`, [textArray(values)]);
    expect(r.rows.map((row) => row.v)).toEqual(values);
    expect((await db.query<{ n: number }>(`SELECT cardinality($1::text[]) AS n`, [textArray([])])).rows[0].n).toBe(0);
  });

  it('an empty array', async () => {
    const r = await db.query<{ n: number }>(`SELECT cardinality($1::tsvector[]) AS n`, [binaryArray(PG_TYPE.tsvector, [])]);
    expect(r.rows[0].n).toBe(0);
  });
});
