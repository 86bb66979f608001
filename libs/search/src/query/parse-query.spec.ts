import { buildTsquery, cjkRequirements, pageMatch, restrictWeights, termTsqueries } from './build-tsquery';
import { cjkQueryParts, parseQuery } from './parse-query';

const stems: Record<string, string[]> = { installing: ['instal'], servers: ['server'], the: [], running: ['run'] };
const lexemes = (w: string) => stems[w] ?? [w];

describe('parseQuery and buildTsquery', () => {
  it('requires every word, the last one as a prefix while typing', () => {
    // The last word also by its stems once typed in full: "servers" finds "server".
    expect(buildTsquery(parseQuery('installing servers'), { mode: 'all', lexemes })).toBe("'instal' & ('servers':* | 'server')");
    expect(buildTsquery(parseQuery('installing serv'), { mode: 'all', lexemes })).toBe("'instal' & 'serv':*");
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
    // A long run: any of its chunks here, the share they must cover comes with it.
    expect(buildTsquery(parseQuery('資料庫備份'), { mode: 'all', lexemes })).toBe("('資料' | '料庫' | '庫備' | '備份')");
    expect(cjkRequirements(parseQuery('資料庫備份'), { mode: 'all', lexemes })).toEqual([
      { grams: ["'資料'", "'料庫'", "'庫備'", "'備份'"], needed: 2, phrase: "('資料' <-> '料庫' <-> '庫備' <-> '備份')" },
    ]);
    expect(buildTsquery(parseQuery('資料庫'), { mode: 'any', lexemes })).toBe("('資料' | '料庫')");
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

  it('gives the page-level shape of the same query for the postings', () => {
    const alternatives = new Map([['serverz', ['server']]]);
    expect(pageMatch(parseQuery('installing servers'), { mode: 'all', lexemes })).toEqual({
      all: [{ lexeme: 'instal' }, { any: [{ prefix: 'servers' }, { lexeme: 'server' }] }],
    });
    expect(pageMatch(parseQuery('"running the servers" serverz '), { mode: 'all', lexemes, alternatives })).toEqual({
      all: [{ phrase: ['run', 'the', 'server'] }, { any: [{ lexeme: 'serverz' }, { lexeme: 'server' }] }],
    });
    // A short CJK run is a chain of its bigrams, in order.
    expect(pageMatch(parseQuery('資料庫'), { mode: 'all', lexemes })).toEqual({ phrase: ['資料', '料庫'] });
    expect(pageMatch(parseQuery('資料庫備份'), { mode: 'all', lexemes })).toEqual({
      atLeast: 2,
      of: [{ lexeme: '資料' }, { lexeme: '料庫' }, { lexeme: '庫備' }, { lexeme: '備份' }],
    });
    expect(pageMatch(parseQuery('庫'), { mode: 'all', lexemes })).toEqual({ prefix: '庫' });
    expect(pageMatch(parseQuery('how do I run servers?'), { mode: 'any', lexemes, isNoise: (w) => ['how', 'do', 'i'].includes(w) })).toEqual({
      any: [{ lexeme: 'run' }, { lexeme: 'server' }],
    });
  });

  it('leaves question words and particles out of CJK runs', () => {
    expect(cjkQueryParts('資料庫是什麼')).toEqual(['資料庫']);
    expect(cjkQueryParts('如何安裝資料庫')).toEqual(['安裝資料庫']);
    expect(cjkQueryParts('サーバーにインストール')).toEqual(['サーバー', 'インストール']);
    expect(cjkQueryParts('インストール手順は')).toEqual(['インストール手順']);
    expect(cjkQueryParts('このページ')).toEqual(['このページ']);
    expect(cjkQueryParts('如何')).toEqual(['如何']);
    expect(cjkQueryParts('什麼是邏輯複寫')).toEqual(['邏輯複寫']);
  });
});
