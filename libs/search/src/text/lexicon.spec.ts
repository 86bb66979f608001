import { PageLexemes, vectorOf } from './build-tsvector';
import { Lexicon, SKIPPED } from './lexicon';
import { textTokens } from './tokenize';
import { vectorText } from '../testing/vector-text';

const stems = (word: string) => (word === 'emails' ? ['email', 'mail', 'mail'] : word.endsWith('s') ? [word.slice(0, -1)] : [word]);

describe('Lexicon', () => {
  it('numbers each text once, a skipped word as SKIPPED; words are the numbered texts but CJK grams', () => {
    const lexicon = new Lexicon();
    const tokens = lexicon.tokens(['flush', '', 'buffers', 'flush', '內容']);
    expect([...tokens]).toEqual([0, SKIPPED, 1, 0, 2]);
    expect(lexicon.text(1)).toBe('buffers');
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

  // The figures the string-keyed builder gave for these sections before lexemes were numbered.
  it('gives each section its vector, and the page its lexemes\' positions and best impacts', () => {
    const lexicon = new Lexicon();
    const title = lexicon.tokens(textTokens('Buffers'));
    const bodies = sections.map((text) => lexicon.tokens(textTokens(text)));
    lexicon.prepare(stems);
    const page = new PageLexemes();
    const vectors = bodies.map((body, ord) => {
      page.ord = ord;
      return vectorText(vectorOf([{ tokens: title, weight: 'A' }, { tokens: body, weight: 'D' }], lexicon, page));
    });
    expect(vectors).toEqual([
      'buffers:1A,5 buffer:1A,5 flush:3 the:4',
      'buffers:1A buffer:1A 內容:3 容設:4 設定:5 定:5 and:6 emails:7 email:7 mail:7',
      'buffers:1A,3,5 buffer:1A,3,5 emails:4 email:4 mail:4',
    ]);
    const byText = <T>(values: T[]) => Object.fromEntries(page.ids.map((id, k) => [lexicon.text(id), values[k]]));
    expect(byText(page.positions)).toEqual({
      buffers: [1, 5, 16385, 32769, 32771, 32773],
      buffer: [1, 5, 16385, 32769, 32771, 32773],
      flush: [3],
      the: [4],
      內容: [16387],
      容設: [16388],
      設定: [16389],
      定: [16389],
      and: [16390],
      emails: [16391, 32772],
      email: [16391, 32772],
      mail: [16391, 32772],
    });
    expect(byText(page.impacts)).toEqual({
      buffers: 0.22737540306381743,
      buffer: 0.22737540306381743,
      flush: 0.04330960058358428,
      the: 0.04330960058358428,
      內容: 0.03391539530642676,
      容設: 0.03391539530642676,
      設定: 0.03391539530642676,
      定: 0.03391539530642676,
      and: 0.03391539530642676,
      emails: 0.03514606842223633,
      email: 0.03514606842223633,
      mail: 0.043932585527795415,
    });
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
