import { buildTsvector, PageLexemes, vectorOf } from './build-tsvector';
import { Lexicon, SKIPPED } from './lexicon';
import { textTokens } from './tokenize';
import { vectorText } from '../testing/vector-text';

const stems = (word: string) => (word === 'emails' ? ['email', 'mail', 'mail'] : word.endsWith('s') ? [word.slice(0, -1)] : [word]);

describe('Lexicon', () => {
  it('numbers each text once, a skipped word as SKIPPED; words are the numbered texts but CJK grams', () => {
    const lexicon = new Lexicon();
    const tokens = lexicon.tokens(['flush', '', 'buffers', 'flush', '內容']);
    expect([...tokens]).toEqual([0, SKIPPED, 1, 0, 2]);
    expect(lexicon.find('buffers')).toBe(1);
    expect(lexicon.find('nothing')).toBeUndefined();
    expect(lexicon.words()).toEqual(['flush', 'buffers']);
  });

  it("gives a word's stems other than itself, duplicates kept, once the stemmer is given", () => {
    const lexicon = new Lexicon();
    const [emails, buffer, gram] = lexicon.tokens(['emails', 'buffer', '內容']);
    expect(lexicon.words()).toEqual(['emails', 'buffer']);
    expect(() => lexicon.stemsOf(emails)).toThrow(/stemmer/);
    lexicon.prepare(stems);
    expect([...lexicon.stemsOf(emails)].map((id) => lexicon.text(id))).toEqual(['email', 'mail', 'mail']);
    expect(lexicon.stemsOf(buffer)).toHaveLength(0);
    expect(lexicon.stemsOf(gram)).toHaveLength(0);
    expect(lexicon.text(lexicon.lastCharOf(gram))).toBe('容');
    expect(lexicon.lastCharOf(buffer)).toBe(SKIPPED);
  });
});

describe('vectorOf', () => {
  const sections = ['Flush the buffers', '內容設定 and emails', 'buffers, emails, buffers'];

  it('gives the vectors, page positions and impacts the text form gives', () => {
    const lexicon = new Lexicon();
    const title = lexicon.tokens(textTokens('Buffers'));
    const bodies = sections.map((text) => lexicon.tokens(textTokens(text)));
    lexicon.prepare(stems);
    const page = new PageLexemes();
    const expected = { impacts: new Map<string, number>(), positions: new Map<string, number[]>(), ord: 0 };
    bodies.forEach((body, ord) => {
      page.ord = expected.ord = ord;
      const vector = vectorOf([{ tokens: title, weight: 'A' }, { tokens: body, weight: 'D' }], lexicon, page);
      const text = buildTsvector([{ tokens: textTokens('Buffers'), weight: 'A' }, { tokens: textTokens(sections[ord]), weight: 'D' }], stems, expected);
      expect(vectorText(vector)).toBe(vectorText(text));
    });
    expect(new Map(page.ids.map((id, k) => [lexicon.text(id), page.impacts[k]]))).toEqual(expected.impacts);
    expect(new Map(page.ids.map((id, k) => [lexicon.text(id), page.positions[k]]))).toEqual(expected.positions);
  });

  it('keeps each page its own lexemes when pages are built in turns', () => {
    const lexicon = new Lexicon();
    const a = lexicon.tokens(textTokens('alpha beta'));
    const b = lexicon.tokens(textTokens('beta gamma'));
    lexicon.prepare((w) => [w]);
    const first = new PageLexemes();
    const second = new PageLexemes();
    vectorOf([{ tokens: a, weight: 'D' }], lexicon, first);
    vectorOf([{ tokens: b, weight: 'D' }], lexicon, second);
    first.ord = 1;
    vectorOf([{ tokens: a, weight: 'D' }], lexicon, first);
    expect(first.ids.map((id) => lexicon.text(id))).toEqual(['alpha', 'beta']);
    expect(first.positions).toEqual([[1, 16_385], [2, 16_386]]);
    expect(second.ids.map((id) => lexicon.text(id))).toEqual(['beta', 'gamma']);
    expect(second.positions).toEqual([[1], [2]]);
  });
});
