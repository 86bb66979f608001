import { withoutSecondaryIndexes } from './rebuild';

describe('withoutSecondaryIndexes', () => {
  it('takes out the one-line CREATE INDEX statements and leaves tables, unique indexes, other shapes and function bodies', () => {
    const body = `CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $f$\nBEGIN\n  CREATE INDEX inside ON t (a);\nEND\n$f$;`;
    const script = [
      'CREATE TABLE s.t (id text PRIMARY KEY, a int, b text UNIQUE);',
      '  CREATE INDEX t_a ON s.t (a);',
      '  create index t_ab on s.t (a, b) where b is not null;',
      'CREATE UNIQUE INDEX t_lower ON s.t (lower(b));',
      'CREATE INDEX t_split',
      '  ON s.t (b);',
      body,
    ].join('\n');
    const { schema, indexes } = withoutSecondaryIndexes(script);
    expect(indexes).toEqual(['CREATE INDEX t_a ON s.t (a)', 'create index t_ab on s.t (a, b) where b is not null']);
    expect(schema).toBe(
      ['CREATE TABLE s.t (id text PRIMARY KEY, a int, b text UNIQUE);', '', '', 'CREATE UNIQUE INDEX t_lower ON s.t (lower(b));', 'CREATE INDEX t_split', '  ON s.t (b);', body].join('\n'),
    );
  });
});
