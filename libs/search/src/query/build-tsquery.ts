import { quoteLexeme } from '../text/build-tsvector';
import type { PageMatch } from '../postings/page-candidates';
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
      // A long CJK run counts for the title only where the title holds all of it.
      const loose = termQuery(t, opts, true);
      const exact = t.kind === 'word' && t.prefix ? termQuery({ ...t, prefix: false }, opts) : loose;
      return loose && exact ? { exact, loose } : undefined;
    })
    .filter((x): x is { exact: string; loose: string } => !!x);
}

/** The same tsquery restricted to lexemes of the given weights (`'x':A`, `'x':*AB`). */
export function restrictWeights(tsquery: string, weights: string): string {
  return tsquery.replace(/('(?:[^']|'')*')(:\*)?/g, (_, lexeme: string, star: string | undefined) => `${lexeme}:${star ? '*' : ''}${weights}`);
}

/**
 * A CJK run of at least this many chunks (four characters) matches a section holding enough of
 * its chunks, not only the exact phrase: questions such as "如何安裝資料庫" are rarely written
 * in the page as they are asked.
 */
const LONG_CJK_GRAMS = 3;
/** Share of a long run's distinct chunks a section must hold. */
export const CJK_MIN_SHARE = 0.5;

type CjkTerm = Extract<QueryTerm, { kind: 'cjk' }>;

function isLongCjk(term: QueryTerm): term is CjkTerm {
  return term.kind === 'cjk' && term.grams.length >= LONG_CJK_GRAMS;
}

function cjkPhrase(term: CjkTerm): string {
  return `(${term.grams.map(quoteLexeme).join(' <-> ')})`;
}

/** What a section must hold of each long CJK run in search ("all" mode): see `LONG_CJK_GRAMS`. */
export interface CjkRequirement {
  /** One tsquery per distinct chunk. */
  grams: string[];
  /** How many of them a section must hold. */
  needed: number;
  /** The whole run as a phrase, for the exact-match bonus. */
  phrase: string;
}

export function cjkRequirements(terms: readonly QueryTerm[], opts: TsqueryOptions): CjkRequirement[] {
  if (opts.mode === 'any') return [];
  return meaningfulTerms(terms, opts)
    .filter(isLongCjk)
    .map((t) => {
      const grams = [...new Set(t.grams)].map(quoteLexeme);
      return { grams, needed: Math.max(2, Math.ceil(grams.length * CJK_MIN_SHARE)), phrase: cjkPhrase(t) };
    });
}

/**
 * The word being typed: words it starts, or its stems once it is whole ("runs" finds "run").
 */
function prefixQuery(word: string, lexemes: Lexemes): string {
  const prefix = `${quoteLexeme(word)}:*`;
  const stems = lexemes(word).filter((s) => s !== word && !s.startsWith(word));
  if (stems.length === 0) return prefix;
  return `(${prefix} | ${stems.length === 1 ? quoteLexeme(stems[0]) : `(${stems.map(quoteLexeme).join(' & ')})`})`;
}

function wordLexeme(word: string, lexemes: Lexemes): string {
  const list = lexemes(word);
  if (list.length === 0) return quoteLexeme(word); // a stop word: the index keeps the word itself
  if (list.length === 1) return quoteLexeme(list[0]);
  return `(${list.map(quoteLexeme).join(' & ')})`;
}

function termQuery(term: QueryTerm, opts: TsqueryOptions, phraseOnly = false): string | null {
  switch (term.kind) {
    case 'word': {
      const base = term.prefix ? prefixQuery(term.word, opts.lexemes) : wordLexeme(term.word, opts.lexemes);
      const alternatives = opts.alternatives?.get(term.word) ?? [];
      return alternatives.length ? `(${[base, ...alternatives.map(quoteLexeme)].join(' | ')})` : base;
    }
    case 'cjk':
      if (term.grams.length === 1) return `${quoteLexeme(term.grams[0])}:*`;
      // "Any word" (ask): any chunk, the caller judges the share matched. A long run in search:
      // any chunk here, with the share required by `cjkRequirements`.
      if (opts.mode === 'any' || (!phraseOnly && isLongCjk(term))) return `(${[...new Set(term.grams)].map(quoteLexeme).join(' | ')})`;
      return cjkPhrase(term);
    case 'phrase': {
      const lexemes = term.tokens.map((t) => (t.cjk ? quoteLexeme(t.text) : quoteLexeme(opts.lexemes(t.text)[0] ?? t.text)));
      return lexemes.length === 1 ? lexemes[0] : `(${lexemes.join(' <-> ')})`;
    }
  }
}

/**
 * The page-level shape of `buildTsquery`'s query, for the postings (see `matchingPages`): the
 * same lexemes, AND within a page where the tsquery has AND within a section, and phrases and
 * CJK chains as their lexemes in order (checked by their positions). Undefined when nothing is
 * left to search for.
 */
export function pageMatch(terms: readonly QueryTerm[], opts: TsqueryOptions): PageMatch | undefined {
  const parts = meaningfulTerms(terms, opts)
    .map((t) => termMatch(t, opts))
    .filter((m): m is PageMatch => !!m);
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return opts.mode === 'all' ? { all: parts } : { any: parts };
}

function allOf(lexemes: readonly string[]): PageMatch {
  return lexemes.length === 1 ? { lexeme: lexemes[0] } : { all: lexemes.map((lexeme) => ({ lexeme })) };
}

function termMatch(term: QueryTerm, opts: TsqueryOptions): PageMatch | undefined {
  switch (term.kind) {
    case 'word': {
      const list = opts.lexemes(term.word);
      let base: PageMatch;
      if (term.prefix) {
        const stems = list.filter((s) => s !== term.word && !s.startsWith(term.word));
        base = stems.length ? { any: [{ prefix: term.word }, allOf(stems)] } : { prefix: term.word };
      } else base = allOf(list.length ? list : [term.word]);
      const alternatives = opts.alternatives?.get(term.word) ?? [];
      return alternatives.length ? { any: [base, ...alternatives.map((lexeme) => ({ lexeme }))] } : base;
    }
    case 'cjk': {
      if (term.grams.length === 1) return { prefix: term.grams[0] };
      const chain = term.grams;
      const grams = [...new Set(chain)].map((lexeme) => ({ lexeme }));
      if (opts.mode === 'any') return { any: grams };
      if (isLongCjk(term)) return { atLeast: Math.max(2, Math.ceil(grams.length * CJK_MIN_SHARE)), of: grams };
      return { phrase: chain };
    }
    case 'phrase': {
      // The lexemes of termQuery's chain.
      const lexemes = term.tokens.map((t) => (t.cjk ? t.text : (opts.lexemes(t.text)[0] ?? t.text)));
      return lexemes.length === 1 ? { lexeme: lexemes[0] } : { phrase: lexemes };
    }
  }
}
