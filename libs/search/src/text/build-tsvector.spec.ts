import { buildTsvector, PageLexemes, tsvectorOf, vectorOf } from './build-tsvector';
import { Lexicon } from './lexicon';
import { textTokens } from './tokenize';
import { vectorText } from '../testing/vector-text';

const stems = (word: string) => (word.endsWith('s') ? [word.slice(0, -1)] : [word]);

describe('buildTsvector', () => {
  it('writes each lexeme with its positions, weight letters but for D, and stems at the word\'s position', () => {
    const tsv = buildTsvector(
      [
        { tokens: textTokens('Buffers'), weight: 'A' },
        { tokens: textTokens('flush buffers'), weight: 'D' },
      ],
      stems,
    );
    // Fields are one unused position apart: the title at 1, the text from 3.
    expect(vectorText(tsv)).toBe('buffers:1A,4 buffer:1A,4 flush:3');
  });

  it('writes lexemes as their UTF-8 bytes, quotes, backslashes and colons included (the binary format quotes nothing)', () => {
    expect(vectorText(buildTsvector([{ tokens: ["it's", 'a\\b', 'x:y', 'café'], weight: 'B' }], (w) => [w]))).toBe("it's:1B a\\b:2B x:y:3B café:4B");
  });

  it('writes a lexeme given twice at one position once there (positions must increase)', () => {
    const tsv = buildTsvector([{ tokens: ['emails', 'mail'], weight: 'C' }], (w) => (w === 'emails' ? ['email', 'mail', 'mail'] : [w]));
    expect(vectorText(tsv)).toBe('emails:1C email:1C mail:1C,2C');
  });

  it('keeps 256 positions a lexeme, and positions up to 16,383 written in full', () => {
    const tsv = vectorText(tsvectorOf([{ text: `${'word '.repeat(300)}${'x '.repeat(16_000)}tail`, weight: 'D' }], (w) => [w]));
    const [word, x] = tsv.split(' ');
    expect(word.split(':')[1].split(',')).toHaveLength(256);
    expect(x.split(':')[1].split(',').slice(-1)).toEqual(['556']); // the 256th x: position 300 + 256
    expect(vectorText(tsvectorOf([{ text: `${'x '.repeat(12_344)}tail`, weight: 'C' }], (w) => [w]))).toContain(' tail:12345C');
  });

  it('gives the same literal and page figures whatever was built before it', () => {
    const lexicon = new Lexicon();
    const fields = [{ tokens: lexicon.tokens(textTokens('one two two three')), weight: 'D' as const }];
    lexicon.prepare((w) => [w]);
    const page = () => Object.assign(new PageLexemes(), { ord: 1 });
    const first = page();
    const before = vectorOf(fields, lexicon, first);
    // A large vector in between: many lexemes and entries.
    buildTsvector([{ tokens: Array.from({ length: 20_000 }, (_, i) => `w${i}`), weight: 'A' }], (w) => [w, `${w}s`]);
    const second = page();
    expect(vectorOf(fields, lexicon, second)).toEqual(before);
    expect(vectorText(before)).toBe('one:1 two:2,3 three:4');
    expect([second.ids, second.impacts, second.positions]).toEqual([first.ids, first.impacts, first.positions]);
  });
});
