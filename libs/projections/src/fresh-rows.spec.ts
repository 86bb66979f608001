import { constantText, copyableInsert, copyLine } from './fresh-rows';

describe('copyableInsert', () => {
  it('reads the columns, parameters, constants and conflict target of an INSERT of one row', () => {
    expect(
      copyableInsert(`INSERT INTO s.t (id, status, n, flag, note, gone) VALUES ($1, 'it''s (merged)', -3, TRUE, $2, NULL)
        ON CONFLICT (id, status) DO UPDATE SET note = EXCLUDED.note`),
    ).toEqual({
      table: 's.t',
      columns: ['id', 'status', 'n', 'flag', 'note', 'gone'],
      values: [{ param: 0 }, { text: "it's (merged)" }, { text: '-3' }, { text: 'true' }, { param: 1 }, { text: null }],
      conflictTarget: ['id', 'status'],
    });
    expect(copyableInsert(`INSERT INTO t (id, n) VALUES ($1, $2)`)).toEqual({ table: 't', columns: ['id', 'n'], values: [{ param: 0 }, { param: 1 }] });
  });

  it('finds nothing in an INSERT whose values must be evaluated or that does more than write its row', () => {
    expect(copyableInsert(`INSERT INTO t (id, chain) VALUES ($1, ARRAY[$1]::text[])`)).toBeUndefined();
    expect(copyableInsert(`INSERT INTO t (id, at) VALUES ($1, now())`)).toBeUndefined();
    expect(copyableInsert(`INSERT INTO t (id, doc) VALUES ($1, '{}'::jsonb)`)).toBeUndefined();
    expect(copyableInsert(`INSERT INTO t (id) VALUES ($1) RETURNING id`)).toBeUndefined();
    expect(copyableInsert(`INSERT INTO t (id) SELECT id FROM u`)).toBeUndefined();
  });
});

describe('constantText and copyLine', () => {
  it('gives a constant the text its column reads, and escapes what COPY would misread', () => {
    expect([constantText('NULL'), constantText('false'), constantText("'a''b'"), constantText('42'), constantText('1.5')]).toEqual([null, 'false', "a'b", '42', undefined]);
    expect(copyLine(['a\\b', 'tab\there', 'line\nbreak\r', null, ''])).toBe('a\\\\b\ttab\\there\tline\\nbreak\\r\t\\N\t\n');
    expect(() => copyLine(['nul\0'])).toThrow(/NUL/);
  });
});
