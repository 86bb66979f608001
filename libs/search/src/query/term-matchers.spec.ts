import { parseQuery } from './parse-query';
import { countMatched, snippet, termMatchers } from './term-matchers';

const lexemes = (w: string) => (w === 'installing' ? ['instal'] : [w]);

describe('term matchers and snippets', () => {
  it('matches words by stem prefix at word starts, and CJK runs anywhere', () => {
    const m = termMatchers(parseQuery('installing 資料庫 '), lexemes);
    expect(countMatched('The installer runs', m)).toBe(1);
    expect(countMatched('reinstalling', m)).toBe(0);
    // installing, and both chunks of 資料庫 (a CJK run counts chunk by chunk)
    expect(countMatched('設定資料庫連線 and install', m)).toBe(3);
    expect(countMatched('資料 only', m)).toBe(1);
  });

  it('cuts a window around the densest cluster of matches, at word boundaries', () => {
    const text = `${'lorem ipsum '.repeat(50)}the needle and the thread ${'dolor sit '.repeat(50)}`;
    const s = snippet(text, termMatchers(parseQuery('needle thread '), lexemes), 120);
    expect(s).toMatch(/^…/);
    expect(s).toMatch(/…$/);
    expect(s).toContain('the needle and the thread');
    expect(s.length).toBeLessThan(160);
  });

  it('starts at the beginning without a match, and keeps short texts whole', () => {
    expect(snippet('short text', termMatchers(parseQuery('nothing'), lexemes))).toBe('short text');
    expect(snippet('line one\nline two', [])).toBe('line one line two');
  });
});
