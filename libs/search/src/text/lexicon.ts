import { isCjkToken } from './tokenize';

/** A token list's entry for a skipped word ('' from `textTokens`): it takes a position, no lexeme. */
export const SKIPPED = -1;

const NO_IDS = new Int32Array(0);

/**
 * The words and lexemes of one indexing run, each numbered once: the index's token lists become
 * arrays of numbers, and what the tsvectors and postings keep per lexeme (a section's entries, a
 * page's positions and impact, a lexeme's pages) is kept in arrays indexed by them. Keyed by
 * strings, those were four or five map lookups for every word of every section, and the maps and
 * lists they held were most of the search index's CPU and garbage (10,001 sections: vectors 513
 * ms and postings 420 of a 1,558 ms index build).
 * Numbers are only meaningful within one lexicon; a lexicon is not shared between indexing runs.
 */
export class Lexicon {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly cjk: boolean[] = [];
  /** UTF-8 of each lexeme, written into every tsvector holding it. */
  private readonly utf8: Array<Buffer | undefined> = [];
  /** Per word: its stems other than itself, in the stemmer's order (see `stemsOf`). */
  private readonly stems: Array<Int32Array | undefined> = [];
  /** Per CJK bigram: its last character (see `lastCharOf`), or SKIPPED when it is not a bigram. */
  private readonly lastChars: number[] = [];

  /**
   * `lexemesOf`: the stemmer's lexemes of a word (see Stemmer.lexemesFor), asked once per word;
   * given here or to `prepare`, once the stemmer has loaded the words.
   */
  constructor(private lexemesOf?: (word: string) => readonly string[]) {}

  /** How many words and lexemes are numbered (every number is below it). */
  get size(): number {
    return this.texts.length;
  }

  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.texts.length;
      this.ids.set(text, id);
      this.texts.push(text);
      this.cjk.push(isCjkToken(text));
    }
    return id;
  }

  text(id: number): string {
    return this.texts[id];
  }

  isCjk(id: number): boolean {
    return this.cjk[id];
  }

  /** Tokens from `textTokens` as numbers, SKIPPED for ''. */
  tokens(tokens: readonly string[]): Int32Array {
    const out = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) out[i] = tokens[i] ? this.id(tokens[i]) : SKIPPED;
    return out;
  }

  /**
   * The numbered texts but CJK grams: before `prepare` (which numbers stems), the distinct words of
   * the token lists numbered, what the stemmer must know.
   */
  words(): string[] {
    const out: string[] = [];
    for (let id = 0; id < this.texts.length; id++) if (!this.cjk[id]) out.push(this.texts[id]);
    return out;
  }

  /**
   * A word's lexemes other than itself, as numbers, duplicates kept (each is one more entry of the
   * tsvector); none for a CJK gram. Numbers its new lexemes on first use: call it for every word
   * before arrays are sized by `size`.
   */
  stemsOf(id: number): Int32Array {
    let stems = this.stems[id];
    if (stems === undefined) {
      if (this.cjk[id]) stems = NO_IDS;
      else {
        const word = this.texts[id];
        if (!this.lexemesOf) throw new Error('Lexicon: stems asked before the stemmer was given (prepare)');
        const lexemes = this.lexemesOf(word);
        let n = 0;
        for (const lexeme of lexemes) if (lexeme !== word) n++;
        stems = n === 0 ? NO_IDS : new Int32Array(n);
        let k = 0;
        for (const lexeme of lexemes) if (lexeme !== word) stems[k++] = this.id(lexeme);
      }
      this.stems[id] = stems;
    }
    return stems;
  }

  /**
   * For a CJK bigram, its last character as a number (numbered on first use, like `stemsOf`),
   * else SKIPPED.
   */
  lastCharOf(id: number): number {
    let last = this.lastChars[id];
    if (last === undefined) {
      const chars = this.cjk[id] ? Array.from(this.texts[id]) : [];
      last = chars.length === 2 ? this.id(chars[1]) : SKIPPED;
      this.lastChars[id] = last;
    }
    return last;
  }

  /** Numbers every lexeme the words numbered so far can add (stems, CJK last characters). */
  prepare(lexemesOf = this.lexemesOf): void {
    this.lexemesOf = lexemesOf;
    const words = this.texts.length;
    for (let id = 0; id < words; id++) {
      this.stemsOf(id);
      this.lastCharOf(id);
    }
  }

  utf8Of(id: number): Buffer {
    let bytes = this.utf8[id];
    if (bytes === undefined) this.utf8[id] = bytes = Buffer.from(this.texts[id], 'utf8');
    return bytes;
  }
}
