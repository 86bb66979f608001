import { parseQuery } from './parse-query';
import { countMatched, snippet, snippetAndMatch, termMatchers } from './term-matchers';

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

  it('collapses every run of whitespace to one space, as /\\s+/ would, single spaces kept', () => {
    expect(snippet('a b  c\td \n e\n\nf\u00a0g \u2003 h\u3000\ti   ', [])).toBe('a b c d e f g h i');
    const chars = [' ', '  ', '\n', '\t', ' \n ', '\u00a0', '\u2003', 'x', 'yz'];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + (i % 30) }, (_, k) => chars[(i * 7 + k * k * 13 + k) % chars.length]).join('');
      expect(snippet(text, [], 1000)).toBe(text.replace(/\s+/g, ' ').trim());
    }
  });

  it('says whether the text matched along with its snippet, as countMatched would', () => {
    const m = termMatchers(parseQuery('installing 資料庫 '), lexemes);
    for (const text of ['The installer runs', 'reinstalling', '設定資料庫連線', '', 'nothing here']) {
      expect(snippetAndMatch(text, m)).toEqual({ snippet: snippet(text, m), matched: countMatched(text, m) > 0 });
    }
  });

  it('picks the first window holding the most distinct terms, whatever the number of hits', () => {
    const m = termMatchers(parseQuery('alpha beta gamma'), lexemes);
    const text = `alpha ${'filler '.repeat(60)}alpha beta ${'filler '.repeat(60)}alpha beta gamma ${'filler '.repeat(60)}alpha beta gamma`;
    expect(snippet(text, m, 60)).toMatch(/^…filler filler alpha beta gamma filler.*…$/);
  });
});
