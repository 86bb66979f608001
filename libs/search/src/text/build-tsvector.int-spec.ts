import type { Db } from '@quire/platform/db/db';
import { binaryArray, PG_TYPE } from '@quire/platform/db/binary-array';
import { openDbOfKind } from '@quire/test-support/db-of-kind';
import { buildTsvector, tsvectorOf } from './build-tsvector';
import { textTokens } from './tokenize';

const stems = (word: string) => (word.endsWith('s') ? [word.slice(0, -1)] : [word]);

/** Vectors with what a literal would have to quote or merge, and the literal PostgreSQL would read the same from. */
const CASES: Array<{ vector: Buffer; literal: string }> = [
  {
    vector: buildTsvector([{ tokens: textTokens('Buffers'), weight: 'A' }, { tokens: textTokens('flush buffers'), weight: 'D' }], stems),
    literal: 'buffers:1A,4 buffer:1A,4 flush:3',
  },
  { vector: buildTsvector([{ tokens: ["it's", 'a\\b', 'x:y', 'café', 'a,b'], weight: 'B' }], (w) => [w]), literal: `'it''s':1B 'a\\\\b':2B 'x:y':3B café:4B 'a,b':5B` },
  { vector: buildTsvector([{ tokens: ['emails', 'mail'], weight: 'C' }], (w) => (w === 'emails' ? ['email', 'mail', 'mail'] : [w])), literal: 'emails:1C email:1C mail:1C,1C,2C' },
  { vector: tsvectorOf([{ text: '內容。設定設', weight: 'D' }], (w) => [w]), literal: '內容:1 容:1 設定:2 定設:3 設:3' },
  { vector: tsvectorOf([{ text: `${'word '.repeat(300)}${'x '.repeat(16_000)}tail`, weight: 'D' }], (w) => [w]), literal: '' },
  { vector: tsvectorOf([], (w) => [w]), literal: '' },
];
// The long one: 256 positions of each lexeme, and the tail where it is.
CASES[4].literal = `word:${Array.from({ length: 256 }, (_, i) => i + 1).join(',')} x:${Array.from({ length: 256 }, (_, i) => i + 301).join(',')} tail:16301`;

describe.each(['postgres', 'pglite'] as const)('binary tsvectors (%s)', (kind) => {
  let db: Db;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ db, close } = await openDbOfKind(kind, 'quire_tsv'));
  });
  afterAll(async () => {
    await close?.();
  });

  it('are read by PostgreSQL as the equivalent literal is, one by one and as an array', async () => {
    for (const { vector, literal } of CASES) {
      const r = await db.query<{ same: boolean; got: string; want: string }>(
        `SELECT $1::tsvector::text AS got, $2::tsvector::text AS want, $1::tsvector = $2::tsvector AS same`,
        [vector, literal],
      );
      expect(r.rows[0].got).toBe(r.rows[0].want);
      expect(r.rows[0].same).toBe(true);
    }
    const all = await db.query<{ got: string }>(`SELECT x::text AS got FROM unnest($1::tsvector[]) WITH ORDINALITY AS u(x, n) ORDER BY n`, [
      binaryArray(PG_TYPE.tsvector, CASES.map((c) => c.vector)),
    ]);
    const want = await db.query<{ want: string }>(`SELECT x::tsvector::text AS want FROM unnest($1::text[]) WITH ORDINALITY AS u(x, n) ORDER BY n`, [CASES.map((c) => c.literal)]);
    expect(all.rows.map((r) => r.got)).toEqual(want.rows.map((r) => r.want));
  });

  it('leave other parameters as they were: text, numbers, bytea, inside a transaction too', async () => {
    const r = await db.transaction((tx) =>
      tx.query<{ n: number; t: string; b: Buffer; tsv: string }>(`SELECT $1::int AS n, $2::text AS t, $3::bytea AS b, $4::tsvector::text AS tsv`, [
        7,
        'seven',
        new Uint8Array([0, 1, 255]),
        CASES[0].vector,
      ]),
    );
    expect(r.rows[0].n).toBe(7);
    expect(r.rows[0].t).toBe('seven');
    expect([...r.rows[0].b]).toEqual([0, 1, 255]);
    expect(r.rows[0].tsv).toBe(`'buffer':1A,4 'buffers':1A,4 'flush':3`);
  });
});
