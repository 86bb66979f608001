import { tsvectorOf } from './build-tsvector';
import { vectorText } from '../testing/vector-text';
import { isCjkToken, textTokens, tokenRuns, trigramSimilarity, trigrams } from './tokenize';

describe('tokenize', () => {
  it('lower-cases words and splits at punctuation, underscores and dashes', () => {
    expect(textTokens('Set td-agent.conf: chunk_limit_size=8MB!')).toEqual(['set', 'td', 'agent', 'conf', 'chunk', 'limit', 'size', '8mb']);
  });

  it('folds full-width Latin (NFKC) and keeps accents and other scripts as words', () => {
    expect(textTokens('ＰｏｓｔｇｒｅＳＱＬ café Привет')).toEqual(['postgresql', 'café', 'привет']);
  });

  it('turns CJK runs into overlapping bigrams, and a lone character into itself', () => {
    expect(textTokens('資料庫系統')).toEqual(['資料', '料庫', '庫系', '系統']);
    expect(textTokens('PostgreSQL資料庫 與 SQL')).toEqual(['postgresql', '資料', '料庫', '與', 'sql']);
    expect(textTokens('インストール手順')).toEqual(['イン', 'ンス', 'スト', 'トー', 'ール', 'ル手', '手順']);
    expect(isCjkToken('資料')).toBe(true);
    expect(isCjkToken('data')).toBe(false);
  });

  it('keeps positions for words too long to index', () => {
    expect(textTokens(`a ${'x'.repeat(61)} b`)).toEqual(['a', '', 'b']);
  });

  it('groups tokens by run for queries', () => {
    expect(tokenRuns('install 資料庫')).toEqual([
      { cjk: false, tokens: ['install'], source: 'install' },
      { cjk: true, tokens: ['資料', '料庫'], source: '資料庫' },
    ]);
  });

  it('computes trigram similarity as pg_trgm does', () => {
    expect(trigrams('cat')).toEqual(['^^c', '^ca', 'cat', 'at^']);
    expect(trigramSimilarity('elasticsearch', 'elasticsearch')).toBe(1);
    expect(trigramSimilarity('elasticsaerch', 'elasticsearch')).toBeGreaterThan(0.5);
    expect(trigramSimilarity('kafka', 'elasticsearch')).toBeLessThan(0.1);
  });

  it('indexes the last character of a CJK run on its own, at the last chunk\'s position', () => {
    const tsv = vectorText(tsvectorOf([{ text: '內容。設定設', weight: 'D' }], (w) => [w]));
    expect(tsv.split(' ').sort()).toEqual(['內容:1', '容:1', '定設:3', '設:3', '設定:2'].sort());
  });
});
