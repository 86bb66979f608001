import type { Queryable } from '@quire/platform/db/db';
import { decodePostings } from './postings';

/**
 * What a page must hold, in lexemes, for a query: the page-level shape of its tsquery (see
 * `pageMatch`). A page matching the tsquery in one of its sections always matches this, so the
 * pages found here hold every page the exact ranking can return.
 */
export type PageMatch =
  | { lexeme: string }
  /** Lexemes starting with it (the MAX_PREFIX_LEXEMES held by most pages). */
  | { prefix: string }
  | { all: PageMatch[] }
  | { any: PageMatch[] }
  | { atLeast: number; of: PageMatch[] };

/** Page key -> score: the sum of the impacts of the lexemes that matched. */
type Scores = Map<number, number>;

export interface PageCandidates {
  /** Page keys of the best pages by score, at most the number asked for. */
  keys: number[];
  /** How many pages match in all. */
  total: number;
  /** Whether `keys` leaves matching pages out. */
  truncated: boolean;
  /** For each lexeme of `count`: how many of the matching pages hold it. */
  holders: number[];
}

/**
 * A prefix of two letters can start thousands of lexemes: those held by most pages are the ones
 * a searcher typing it most likely means, and they are the ones kept.
 */
const MAX_PREFIX_LEXEMES = 64;

/**
 * The pages of the given spaces that match, best first by the sum of their lexemes' impacts, read
 * from the postings (one row per lexeme and space) in one statement. This is the cheap first
 * stage of ranking: the exact ranking then reads the sections of these pages only.
 */
export async function pageCandidates(db: Queryable, spaceKeys: readonly number[], match: PageMatch, limit: number, count: readonly string[] = []): Promise<PageCandidates> {
  const lexemes = new Set<string>(count);
  const prefixes = new Set<string>();
  collect(match, lexemes, prefixes);
  const r = await db.query<{ lexeme: string; entries: Uint8Array }>(
    `WITH expanded AS (
       SELECT x.lexeme FROM unnest($3::text[]) AS p(prefix)
        CROSS JOIN LATERAL (
          SELECT lexeme FROM rm_search_postings
           WHERE lexeme >= p.prefix AND lexeme < p.prefix || chr(1114111) AND space_key = ANY($2::int[])
           GROUP BY lexeme ORDER BY sum(pages) DESC, lexeme LIMIT ${MAX_PREFIX_LEXEMES}) x)
     SELECT lexeme, entries FROM rm_search_postings
      WHERE space_key = ANY($2::int[]) AND (lexeme = ANY($1::text[]) OR lexeme IN (SELECT lexeme FROM expanded))`,
    [[...lexemes], spaceKeys, [...prefixes]],
  );
  const lists = new Map<string, Scores>();
  for (const row of r.rows) {
    const { keys, impacts } = decodePostings(row.entries);
    let list = lists.get(row.lexeme);
    if (!list) lists.set(row.lexeme, (list = new Map()));
    for (let i = 0; i < keys.length; i++) list.set(keys[i], impacts[i]);
  }
  const scores = evaluate(match, lists);
  const holders = count.map((lexeme) => {
    const list = lists.get(lexeme);
    let n = 0;
    if (list) for (const key of list.keys()) if (scores.has(key)) n++;
    return n;
  });
  return { ...best(scores, limit), holders };
}

function collect(match: PageMatch, lexemes: Set<string>, prefixes: Set<string>): void {
  if ('lexeme' in match) lexemes.add(match.lexeme);
  else if ('prefix' in match) prefixes.add(match.prefix);
  else for (const m of 'all' in match ? match.all : 'any' in match ? match.any : match.of) collect(m, lexemes, prefixes);
}

const NONE: Scores = new Map();

export function evaluate(match: PageMatch, lists: ReadonlyMap<string, Scores>): Scores {
  if ('lexeme' in match) return lists.get(match.lexeme) ?? NONE;
  if ('prefix' in match) {
    const out: Scores = new Map();
    for (const [lexeme, list] of lists) {
      if (!lexeme.startsWith(match.prefix)) continue;
      for (const [key, impact] of list) if (!(out.get(key)! >= impact)) out.set(key, impact);
    }
    return out;
  }
  if ('all' in match) return atLeast(match.all.map((m) => evaluate(m, lists)), match.all.length);
  if ('any' in match) return atLeast(match.any.map((m) => evaluate(m, lists)), 1);
  return atLeast(match.of.map((m) => evaluate(m, lists)), match.atLeast);
}

/** Pages in at least `needed` of the lists, scored by the sum over the lists holding them. */
function atLeast(parts: Scores[], needed: number): Scores {
  if (parts.length === 1 && needed <= 1) return parts[0];
  if (needed >= parts.length) {
    // All of them: walk the smallest, look the page up in the others.
    const sorted = [...parts].sort((a, b) => a.size - b.size);
    const out: Scores = new Map();
    outer: for (const [key, impact] of sorted[0]) {
      let sum = impact;
      for (let i = 1; i < sorted.length; i++) {
        const other = sorted[i].get(key);
        if (other === undefined) continue outer;
        sum += other;
      }
      out.set(key, sum);
    }
    return out;
  }
  const sums: Scores = new Map();
  const counts = new Map<number, number>();
  for (const part of parts) {
    for (const [key, impact] of part) {
      sums.set(key, (sums.get(key) ?? 0) + impact);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  if (needed > 1) for (const [key, count] of counts) if (count < needed) sums.delete(key);
  return sums;
}

/** The `limit` best pages, by score then key (so that ties are cut the same way every time). */
function best(scores: Scores, limit: number): Omit<PageCandidates, 'holders'> {
  const total = scores.size;
  if (total <= limit) return { keys: [...scores.keys()], total, truncated: false };
  const values = Float64Array.from(scores.values()).sort();
  const threshold = values[total - limit];
  const above: number[] = [];
  const at: number[] = [];
  for (const [key, score] of scores) {
    if (score > threshold) above.push(key);
    else if (score === threshold) at.push(key);
  }
  at.sort((a, b) => a - b);
  return { keys: above.concat(at.slice(0, limit - above.length)), total, truncated: true };
}
