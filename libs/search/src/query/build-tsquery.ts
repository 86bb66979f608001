import { quoteLexeme } from '../text/build-tsvector';
import { QueryTerm } from './parse-query';

export type Lexemes = (word: string) => readonly string[];

export interface TsqueryOptions {
  /** `all`: every term must match (search); `any`: at least one (ask, and the last resort). */
  mode: 'all' | 'any';
  lexemes: Lexemes;
  /** Typo corrections: more words a term may match, by the term's word. */
  alternatives?: ReadonlyMap<string, readonly string[]>;
  /**
   * Words to leave out (stop words, question words) unless they are all there is, in a phrase,
   * or the prefix being typed: "how to configure the cluster" needs neither "how" nor "the".
   */
  isNoise?: (word: string) => boolean;
}

/**
 * A tsquery literal (cast with `::tsquery`, no further normalisation) matching the index's
 * tsvectors: stems for whole words (the raw word for stop words, which the index keeps too),
 * the raw word for a prefix, chains of `<->` for phrases and CJK runs. Returns '' when nothing
 * is left to search for.
 */
export function buildTsquery(terms: readonly QueryTerm[], opts: TsqueryOptions): string {
  const usable = meaningfulTerms(terms, opts);
  const parts = usable.map((t) => termQuery(t, opts)).filter((p): p is string => !!p);
  return parts.join(opts.mode === 'all' ? ' & ' : ' | ');
}

function meaningfulTerms(terms: readonly QueryTerm[], opts: TsqueryOptions): readonly QueryTerm[] {
  if (!opts.isNoise) return terms;
  const meaningful = terms.filter((t) => t.kind !== 'word' || t.prefix || !opts.isNoise!(t.word));
  return meaningful.length ? meaningful : terms;
}

/**
 * Per-term tsqueries for judging a page title: `exact` takes a prefix term as a whole word,
 * `loose` as the prefix (a title matching only as a prefix gets half the credit).
 */
export function termTsqueries(terms: readonly QueryTerm[], opts: TsqueryOptions): Array<{ exact: string; loose: string }> {
  return meaningfulTerms(terms, opts)
    .map((t) => {
      const loose = termQuery(t, opts);
      const exact = t.kind === 'word' && t.prefix ? termQuery({ ...t, prefix: false }, opts) : loose;
      return loose && exact ? { exact, loose } : undefined;
    })
    .filter((x): x is { exact: string; loose: string } => !!x);
}

/** The same tsquery restricted to lexemes of the given weights (`'x':A`, `'x':*AB`). */
export function restrictWeights(tsquery: string, weights: string): string {
  return tsquery.replace(/('(?:[^']|'')*')(:\*)?/g, (_, lexeme: string, star: string | undefined) => `${lexeme}:${star ? '*' : ''}${weights}`);
}

function wordLexeme(word: string, lexemes: Lexemes): string {
  const list = lexemes(word);
  if (list.length === 0) return quoteLexeme(word); // a stop word: the index keeps the word itself
  if (list.length === 1) return quoteLexeme(list[0]);
  return `(${list.map(quoteLexeme).join(' & ')})`;
}

function termQuery(term: QueryTerm, opts: TsqueryOptions): string | null {
  switch (term.kind) {
    case 'word': {
      const base = term.prefix ? `${quoteLexeme(term.word)}:*` : wordLexeme(term.word, opts.lexemes);
      const alternatives = opts.alternatives?.get(term.word) ?? [];
      return alternatives.length ? `(${[base, ...alternatives.map(quoteLexeme)].join(' | ')})` : base;
    }
    case 'cjk':
      if (term.grams.length === 1) return `${quoteLexeme(term.grams[0])}:*`;
      return `(${term.grams.map(quoteLexeme).join(' <-> ')})`;
    case 'phrase': {
      const lexemes = term.tokens.map((t) => (t.cjk ? quoteLexeme(t.text) : quoteLexeme(opts.lexemes(t.text)[0] ?? t.text)));
      return lexemes.length === 1 ? lexemes[0] : `(${lexemes.join(' <-> ')})`;
    }
  }
}
