import { buildTsquery, restrictWeights, termTsqueries } from './build-tsquery';
import { parseQuery } from './parse-query';

const stems: Record<string, string[]> = { installing: ['instal'], servers: ['server'], the: [], running: ['run'] };
const lexemes = (w: string) => stems[w] ?? [w];

describe('parseQuery and buildTsquery', () => {
  it('requires every word, the last one as a prefix while typing', () => {
    expect(buildTsquery(parseQuery('installing servers'), { mode: 'all', lexemes })).toBe("'instal' & 'servers':*");
    expect(buildTsquery(parseQuery('installing servers '), { mode: 'all', lexemes })).toBe("'instal' & 'server'");
    expect(buildTsquery(parseQuery('installing s'), { mode: 'all', lexemes })).toBe("'instal' & 's'");
  });

  it('keeps stop words as themselves (the index keeps them too)', () => {
    expect(buildTsquery(parseQuery('the '), { mode: 'all', lexemes })).toBe("'the'");
  });

  it('matches quoted phrases and CJK runs as chains', () => {
    expect(buildTsquery(parseQuery('"running the servers" fast'), { mode: 'all', lexemes })).toBe("('run' <-> 'the' <-> 'server') & 'fast':*");
    expect(buildTsquery(parseQuery('資料庫'), { mode: 'all', lexemes })).toBe("('資料' <-> '料庫')");
    expect(buildTsquery(parseQuery('庫'), { mode: 'all', lexemes })).toBe("'庫':*");
    expect(buildTsquery(parseQuery('"unterminated phrase'), { mode: 'all', lexemes })).toBe("('unterminated' <-> 'phrase')");
  });

  it('offers corrections as alternatives and drops noise in "any" mode', () => {
    const alternatives = new Map([['elasticsaerch', ['elasticsearch']]]);
    expect(buildTsquery(parseQuery('elasticsaerch output '), { mode: 'all', lexemes, alternatives })).toBe("('elasticsaerch' | 'elasticsearch') & 'output'");
    expect(buildTsquery(parseQuery('how do I run servers?'), { mode: 'any', lexemes, isNoise: (w) => ['how', 'do', 'i'].includes(w) })).toBe("'run' | 'server'");
  });

  it('escapes nothing away: quotes and backslashes cannot break out of a lexeme', () => {
    expect(buildTsquery(parseQuery("o'brien \\ x"), { mode: 'all', lexemes })).toBe("'o' & 'brien' & 'x'");
  });

  it('builds per-term title queries, exact and loose, restricted to weights', () => {
    const perTerm = termTsqueries(parseQuery('installing serv'), { mode: 'all', lexemes });
    expect(perTerm).toEqual([
      { exact: "'instal'", loose: "'instal'" },
      { exact: "'serv'", loose: "'serv':*" },
    ]);
    expect(restrictWeights("('a' | 'b':*)", 'AB')).toBe("('a':AB | 'b':*AB)");
  });
});
