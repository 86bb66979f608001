import { RANK_WEIGHTS } from '../ranking';
import { isCjkToken, textTokens } from './tokenize';
import { pagePosition } from '../postings/postings';

export type Weight = 'A' | 'B' | 'C' | 'D';

export interface WeightedTokens {
  /** From `textTokens`. */
  tokens: readonly string[];
  weight: Weight;
}

const WEIGHT_VALUE: Record<Weight, number> = { D: RANK_WEIGHTS[0], C: RANK_WEIGHTS[1], B: RANK_WEIGHTS[2], A: RANK_WEIGHTS[3] };

/** PostgreSQL keeps at most 256 positions per lexeme and positions up to 16,383. */
const MAX_POSITIONS = 256;
const MAX_POSITION = 16_383;

/** Every distinct word (not CJK gram) of some token lists: what the stemmer must know beforehand. */
export function collectWords(lists: Iterable<readonly string[]>, into = new Set<string>()): Set<string> {
  for (const tokens of lists) for (const t of tokens) if (t && !into.has(t) && !isCjkToken(t)) into.add(t);
  return into;
}

/**
 * A tsvector literal for weighted token lists: each word is stored as itself (exact and prefix
 * matches, stop words included) and, at the same position, as its stems (language-aware
 * matches); CJK grams as themselves. Fields are separated by an unused position so that a
 * phrase never spans two of them. Text past PostgreSQL's last position is left out (such
 * giant sections would otherwise pile onto it and approach the 1 MB tsvector limit).
 * With `page`, also raises each lexeme's entry in `impacts` to what `ts_rank(RANK_WEIGHTS,
 * tsvector, lexeme, 1)` gives the section for that lexeme alone (so a map shared by a page's
 * sections ends with the page's best section), and appends the positions the tsvector holds for
 * each lexeme to `positions`, as page positions of section `ord` (see `pagePosition`).
 */
export function buildTsvector(
  fields: readonly WeightedTokens[],
  lexemesOf: (word: string) => readonly string[],
  page?: { impacts: Map<string, number>; positions: Map<string, number[]>; ord: number },
): string {
  // Slots instead of arrays of strings: one string per lexeme grows by concatenation (ropes).
  const slots = new Map<string, number>();
  const lexemes: string[] = [];
  const lists: string[] = [];
  const counts: number[] = [];
  // ts_rank's per-lexeme figures (calc_rank_or): sum of w/(j+1)^2, the largest w and its j.
  const sums: number[] = [];
  const maxWeights: number[] = [];
  const maxAt: number[] = [];
  // Each lexeme's list of page positions (shared by the page's sections, appended in order).
  const held: number[][] = [];
  const base = page ? pagePosition(page.ord, 0) : 0;
  const add = (lexeme: string, entry: string, w: number, position: number) => {
    const slot = slots.get(lexeme);
    if (slot === undefined) {
      slots.set(lexeme, lexemes.length);
      lexemes.push(lexeme);
      lists.push(entry);
      counts.push(1);
      sums.push(w);
      maxWeights.push(w);
      maxAt.push(0);
      if (page) {
        let list = page.positions.get(lexeme);
        if (!list) page.positions.set(lexeme, (list = []));
        list.push(base + position);
        held.push(list);
      }
    } else if (counts[slot] < MAX_POSITIONS) {
      // A lexeme twice at one position (a word and a stem alike) is one position of the tsvector.
      if (page && held[slot][held[slot].length - 1] !== base + position) held[slot].push(base + position);
      lists[slot] += ',' + entry;
      const j = counts[slot]++;
      sums[slot] += w / ((j + 1) * (j + 1));
      if (w > maxWeights[slot]) {
        maxWeights[slot] = w;
        maxAt[slot] = j;
      }
    }
  };
  let position = 0;
  for (const field of fields) {
    const { tokens, weight } = field;
    if (tokens.length === 0) continue;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      position++;
      if (!token) continue;
      if (position > MAX_POSITION) break;
      // D is PostgreSQL's default weight and is written without a letter: the text's weight.
      const entry = weight === 'D' ? String(position) : position + weight;
      const w = WEIGHT_VALUE[weight];
      add(token, entry, w, position);
      if (isCjkToken(token)) {
        // The last character of a run is in no chunk as a first character: it is indexed on its
        // own too (at the last chunk's position), so a one-character query (`'x':*`) finds it.
        const last = lastCharOfRunEnd(token, tokens[i + 1]);
        if (last) add(last, entry, w, position);
        continue;
      }
      const stems = lexemesOf(token);
      for (let k = 0; k < stems.length; k++) if (stems[k] !== token) add(stems[k], entry, w, position);
    }
    position++;
  }
  if (page) {
    const { impacts } = page;
    let length = 0;
    for (let i = 0; i < counts.length; i++) length += counts[i];
    const norm = Math.log2(length + 1);
    for (let i = 0; i < lexemes.length; i++) {
      const j = maxAt[i];
      const rank = (maxWeights[i] + sums[i] - maxWeights[i] / ((j + 1) * (j + 1))) / PI2_6 / norm;
      const had = impacts.get(lexemes[i]);
      if (had === undefined || rank > had) impacts.set(lexemes[i], rank);
    }
  }
  let out = '';
  for (let i = 0; i < lexemes.length; i++) out += (i ? ' ' : '') + literalLexeme(lexemes[i]) + ':' + lists[i];
  return out;
}

/** sum(1/i^2), i = 1..inf: ts_rank's divisor. */
const PI2_6 = 1.64493406685;

/**
 * The last character of a CJK bigram that ends its run (the next token does not start with that
 * character), else undefined. A bigram followed by another that starts with its last character
 * needs nothing more: that character is found as the prefix of the next one.
 */
function lastCharOfRunEnd(token: string, next: string | undefined): string | undefined {
  const chars = Array.from(token);
  if (chars.length !== 2) return undefined;
  const last = chars[1];
  return next && next.startsWith(last) ? undefined : last;
}

/** Convenience for short texts (titles): tokenizes, then builds. */
export function tsvectorOf(fields: ReadonlyArray<{ text: string; weight: Weight }>, lexemesOf: (word: string) => readonly string[]): string {
  return buildTsvector(fields.map((f) => ({ tokens: textTokens(f.text), weight: f.weight })), lexemesOf);
}

const NEEDS_QUOTES = /[\s'\\:,]/;

/** Lexemes of letters and digits go unquoted: the literal is shorter and parses faster. */
function literalLexeme(lexeme: string): string {
  return NEEDS_QUOTES.test(lexeme) ? quoteLexeme(lexeme) : lexeme;
}

export function quoteLexeme(lexeme: string): string {
  if (lexeme.indexOf("'") < 0 && lexeme.indexOf('\\') < 0) return "'" + lexeme + "'";
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
