import { FoldedInsert, foldableInsert, FoldedUpdate, foldableUpdate } from './update-folding';

const TS = 'timestamp with time zone';

describe('foldableUpdate', () => {
  it('takes updates by key whose assignments are values, constants, integer deltas or greatest', () => {
    expect(foldableUpdate(`UPDATE s.t SET a = $2, b = b + $3, c = greatest(c, $4), d = 'it''s', e = NULL WHERE id = $1`, ['text', 'text', 'integer', TS])).toEqual({
      table: 's.t',
      keyColumn: 'id',
      keyParam: 0,
      assignments: [
        ['a', { kind: 'value', param: 1 }],
        ['b', { kind: 'add', param: 2 }],
        ['c', { kind: 'greatest', param: 3 }],
        ['d', { kind: 'constant', sql: "'it''s'" }],
        ['e', { kind: 'constant', sql: 'NULL' }],
      ],
    });
  });

  it('takes the element added to a text[] when missing (a set kept in first-seen order)', () => {
    const sql = `UPDATE t SET tags = CASE WHEN $2 = ANY(tags) THEN tags ELSE tags || $2::text END WHERE id = $1`;
    expect(foldableUpdate(sql, ['text', 'text'])?.assignments).toEqual([['tags', { kind: 'append', param: 1 }]]);
    expect(foldableUpdate(sql.replace('$2::text', '$2'), ['text', 'text'])?.assignments).toEqual([['tags', { kind: 'append', param: 1 }]]);
    // Another parameter, another column, or an element that is not text: not this shape.
    expect(foldableUpdate(sql.replace('tags || $2', 'tags || $3'), ['text', 'text', 'text'])).toBeUndefined();
    expect(foldableUpdate(sql.replace('THEN tags', 'THEN other'), ['text', 'text'])).toBeUndefined();
    expect(foldableUpdate(sql, ['text', 'integer'])).toBeUndefined();
  });

  it('leaves alone every other shape', () => {
    const types = ['text', 'integer', 'integer'];
    expect(foldableUpdate(`UPDATE t SET a = coalesce($2, a) WHERE id = $1`, types)).toBeUndefined();
    expect(foldableUpdate(`UPDATE t SET a = b + $2 WHERE id = $1`, types)).toBeUndefined();
    expect(foldableUpdate(`UPDATE t SET a = a + $2 WHERE id = $1 AND b = $3`, types)).toBeUndefined();
    expect(foldableUpdate(`UPDATE t SET a = (SELECT b FROM u WHERE k = $2) WHERE id = $1`, types)).toBeUndefined();
    expect(foldableUpdate(`UPDATE t x SET a = $2 WHERE x.id = $1`, types)).toBeUndefined();
    expect(foldableUpdate(`DELETE FROM t WHERE id = $1`, types)).toBeUndefined();
    // Deltas only of integers, greatest only of timestamps.
    expect(foldableUpdate(`UPDATE t SET a = a + $2 WHERE id = $1`, ['text', 'numeric'])).toBeUndefined();
    expect(foldableUpdate(`UPDATE t SET a = greatest(a, $2) WHERE id = $1`, ['text', 'text'])).toBeUndefined();
  });
});

describe('FoldedUpdate', () => {
  const update = (sql: string, types: string[]) => foldableUpdate(sql, types)!;
  const counters = update(`UPDATE t SET n = n + $2 WHERE id = $1`, ['text', 'integer']);
  const setN = update(`UPDATE t SET n = $2, at = $3 WHERE id = $1`, ['text', 'integer', TS]);
  const later = update(`UPDATE t SET at = greatest(at, $2) WHERE id = $1`, ['text', TS]);
  const constant = update(`UPDATE t SET n = 0 WHERE id = $1`, ['text']);

  it('adds deltas, moves values by them, keeps the later instant and the last value', () => {
    const folded = FoldedUpdate.start(counters, ['a', 2], ['text', 'integer']);
    expect(folded.fold(counters, ['a', -5], ['text', 'integer'])).toBe(true);
    expect(folded.render()).toEqual({ sql: `UPDATE t SET n = n + $2 WHERE id = $1`, params: ['a', -3], types: ['text', 'integer'] });
    expect(folded.fold(setN, ['a', 10, '2026-01-01T10:00:00+02:00'], ['text', 'integer', TS])).toBe(true);
    expect(folded.fold(counters, ['a', 1], ['text', 'integer'])).toBe(true);
    // 09:00Z is later than 10:00+02:00 (08:00Z); NULL changes nothing, as in GREATEST.
    expect(folded.fold(later, ['a', '2026-01-01T09:00:00Z'], ['text', TS])).toBe(true);
    expect(folded.fold(later, ['a', null], ['text', TS])).toBe(true);
    expect(folded.fold(later, ['a', new Date('2026-01-01T08:30:00Z')], ['text', TS])).toBe(true);
    expect(folded.render()).toEqual({ sql: `UPDATE t SET n = $2, at = $3 WHERE id = $1`, params: ['a', 11, '2026-01-01T09:00:00Z'], types: ['text', 'integer', TS] });
  });

  it('adds an element to a known array when missing, and runs one that follows nothing known as it is', () => {
    const append = update(`UPDATE t SET tags = CASE WHEN $2 = ANY(tags) THEN tags ELSE tags || $2::text END WHERE id = $1`, ['text', 'text']);
    const setTags = update(`UPDATE t SET tags = $2 WHERE id = $1`, ['text', 'text[]']);
    const folded = FoldedUpdate.start(append, ['a', 'x'], ['text', 'text']);
    expect(folded.fold(later, ['a', '2026-01-01T09:00:00Z'], ['text', TS])).toBe(true);
    expect(folded.render()).toEqual({
      sql: `UPDATE t SET tags = CASE WHEN $2 = ANY(tags) THEN tags ELSE tags || $2::text END, at = greatest(at, $3) WHERE id = $1`,
      params: ['a', 'x', '2026-01-01T09:00:00Z'],
      types: ['text', 'text', TS],
    });
    // A second element after an unknown array is not composed.
    expect(folded.fold(append, ['a', 'y'], ['text', 'text'])).toBe(false);
    const known = FoldedUpdate.start(setTags, ['a', ['x']], ['text', 'text[]']);
    expect(known.fold(append, ['a', 'y'], ['text', 'text'])).toBe(true);
    expect(known.fold(append, ['a', 'x'], ['text', 'text'])).toBe(true);
    expect(known.fold(append, ['a', 'y'], ['text', 'text'])).toBe(true);
    expect(known.render()).toEqual({ sql: `UPDATE t SET tags = $2 WHERE id = $1`, params: ['a', ['x', 'y']], types: ['text', 'text[]'] });
    // A NULL element (array_append adds NULL) and a NULL array are left to PostgreSQL.
    expect(known.fold(append, ['a', null], ['text', 'text'])).toBe(false);
    expect(FoldedUpdate.start(setTags, ['a', null], ['text', 'text[]']).fold(append, ['a', 'x'], ['text', 'text'])).toBe(false);
  });

  it('refuses, changing nothing, what it cannot compose exactly', () => {
    const folded = FoldedUpdate.start(constant, ['a'], ['text']);
    expect(folded.fold(counters, ['a', 1], ['text', 'integer'])).toBe(false);
    const timed = FoldedUpdate.start(later, ['a', '2026-01-01T09:00:00Z'], ['text', TS]);
    // Microseconds: JavaScript cannot compare them exactly.
    expect(timed.fold(later, ['a', '2026-01-01T09:00:00.000001Z'], ['text', TS])).toBe(false);
    const counted = FoldedUpdate.start(counters, ['a', Number.MAX_SAFE_INTEGER], ['text', 'integer']);
    expect(counted.fold(counters, ['a', 1], ['text', 'integer'])).toBe(false);
    expect(counted.render().params).toEqual(['a', Number.MAX_SAFE_INTEGER]);
  });
});

describe('foldableInsert', () => {
  it('takes an INSERT of one row keyed by a parameter, alone or doing nothing on a conflict of its key', () => {
    expect(foldableInsert(`INSERT INTO s.t (id, n, s, e) VALUES ($1, $2, 'it''s, (x', coalesce($3, 1)) ON CONFLICT (id) DO NOTHING`)).toEqual({
      table: 's.t',
      keyColumn: 'id',
      keyParam: 0,
      doNothing: true,
      columns: [
        ['id', { kind: 'param', param: 0 }],
        ['n', { kind: 'param', param: 1 }],
        ['s', { kind: 'constant', sql: "'it''s, (x'" }],
        ['e', { kind: 'expression', sql: 'coalesce($3, 1)' }],
      ],
    });
    expect(foldableInsert(`INSERT INTO t (a, id) VALUES ($2, $1)`)).toMatchObject({ keyColumn: 'a', keyParam: 1, doNothing: false });
  });

  it('leaves alone upserts, other conflict targets, rows of several values and keys that are not parameters', () => {
    expect(foldableInsert(`INSERT INTO t (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = EXCLUDED.n`)).toBeUndefined();
    expect(foldableInsert(`INSERT INTO t (a, b) VALUES ($1, $2) ON CONFLICT (a, b) DO NOTHING`)).toBeUndefined();
    expect(foldableInsert(`INSERT INTO t (id, n) VALUES ($1, $2) ON CONFLICT DO NOTHING`)).toBeUndefined();
    expect(foldableInsert(`INSERT INTO t (id, n) VALUES ($1, $2), ($3, $4)`)).toBeUndefined();
    expect(foldableInsert(`INSERT INTO t (id, n) VALUES (lower($1), $2)`)).toBeUndefined();
    expect(foldableInsert(`INSERT INTO t (id, n) VALUES ($1, $2) RETURNING id`)).toBeUndefined();
  });
});

describe('FoldedInsert', () => {
  const update = (sql: string, types: string[]) => foldableUpdate(sql, types)!;
  const insertSql = `INSERT INTO t (id, n, at, tags, label, e) VALUES ($1, $2, $3, $4, 'new', coalesce($5, 'x')) ON CONFLICT (id) DO NOTHING`;
  const insertTypes = ['text', 'integer', TS, 'text[]', 'text'];
  const insertParams = ['a', 1, '2026-01-01T08:00:00Z', ['x'], 'e'];
  const start = (fresh: boolean) => FoldedInsert.start(foldableInsert(insertSql)!, insertSql, insertParams, insertTypes, fresh);
  const counters = update(`UPDATE t SET n = n + $2 WHERE id = $1`, ['text', 'integer']);
  const later = update(`UPDATE t SET at = greatest(at, $2), note = $3 WHERE id = $1`, ['text', TS, 'text']);
  const append = update(`UPDATE t SET tags = CASE WHEN $2 = ANY(tags) THEN tags ELSE tags || $2::text END WHERE id = $1`, ['text', 'text']);

  it('is the INSERT as it came while nothing folded into it', () => {
    expect(start(false).render()).toEqual({ sql: insertSql, params: insertParams, types: insertTypes });
  });

  it('inserts the row as its updates leave it, naming the columns they assign, when the row is known to be new', () => {
    const folded = start(true);
    expect(folded.fold(counters, ['a', 2], ['text', 'integer'])).toBe(true);
    expect(folded.fold(later, ['a', '2026-01-01T09:00:00Z', 'hello'], ['text', TS, 'text'])).toBe(true);
    expect(folded.fold(append, ['a', 'y'], ['text', 'text'])).toBe(true);
    expect(folded.fold(append, ['a', 'x'], ['text', 'text'])).toBe(true);
    expect(folded.fold(update(`UPDATE t SET e = $2, label = NULL WHERE id = $1`, ['text', 'text']), ['a', 'f'], ['text', 'text'])).toBe(true);
    expect(folded.render()).toEqual({
      sql: `INSERT INTO t (id, n, at, tags, label, e, note) VALUES ($1, $2, $3, $4, NULL, $5, $6) ON CONFLICT (id) DO NOTHING`,
      params: ['a', 3, '2026-01-01T09:00:00Z', ['x', 'y'], 'f', 'hello'],
      types: ['text', 'integer', TS, 'text[]', 'text', 'text'],
      pre: undefined,
    });
  });

  it('runs the folded updates first for a row that may have been there (the INSERT then does nothing)', () => {
    const folded = start(false);
    expect(folded.fold(counters, ['a', 2], ['text', 'integer'])).toBe(true);
    expect(folded.fold(counters, ['a', 3], ['text', 'integer'])).toBe(true);
    const r = folded.render();
    expect(r.params.slice(0, 2)).toEqual(['a', 6]);
    // An expression of the INSERT keeps its parameter.
    expect(r.sql).toBe(`INSERT INTO t (id, n, at, tags, label, e) VALUES ($1, $2, $3, $4, 'new', coalesce($5, 'x')) ON CONFLICT (id) DO NOTHING`);
    expect(r.params[4]).toBe('e');
    expect(r.pre).toEqual({ sql: `UPDATE t SET n = n + $2 WHERE id = $1`, params: ['a', 5], types: ['text', 'integer'] });
  });

  it('refuses, changing nothing, a delta or a later instant of a value it does not know, and an update of its key', () => {
    const folded = start(true);
    expect(folded.fold(update(`UPDATE t SET big = big + $2 WHERE id = $1`, ['text', 'integer']), ['a', 1], ['text', 'integer'])).toBe(false);
    expect(folded.fold(update(`UPDATE t SET e = e + $2 WHERE id = $1`, ['text', 'integer']), ['a', 1], ['text', 'integer'])).toBe(false);
    expect(folded.fold(update(`UPDATE t SET n = $2, label = label + $3 WHERE id = $1`, ['text', 'integer', 'integer']), ['a', 5, 1], ['text', 'integer', 'integer'])).toBe(false);
    expect(folded.fold(update(`UPDATE t SET id = $2 WHERE id = $1`, ['text', 'text']), ['a', 'b'], ['text', 'text'])).toBe(false);
    expect(folded.fold(update(`UPDATE u SET n = $2 WHERE id = $1`, ['text', 'integer']), ['a', 1], ['text', 'integer'])).toBe(false);
    expect(folded.render()).toEqual({ sql: insertSql, params: insertParams, types: insertTypes });
  });
});
