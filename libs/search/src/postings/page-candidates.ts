import type { Queryable } from '@quire/platform/db/db';
import { decodeRecordsInto, positionOffsetsInto, recordCount } from './postings';
import { PostingsCache, StoredList } from './postings-cache';

/**
 * What a page must hold, in lexemes, for a query: the page-level shape of its tsquery (see
 * `pageMatch`). A page matching the tsquery in one of its sections always matches this, so the
 * pages found here hold every page the exact ranking can return.
 */
export type PageMatch =
  | { lexeme: string }
  /** Lexemes starting with it (the MAX_PREFIX_LEXEMES held by most pages). */
  | { prefix: string }
  /** Lexemes at consecutive positions of one section (a phrase, a CJK chain), checked by their positions. */
  | { phrase: string[] }
  | { all: PageMatch[] }
  | { any: PageMatch[] }
  | { atLeast: number; of: PageMatch[] };

/**
 * Pages with scores (the sum of the impacts of the lexemes that matched), sorted by page key:
 * typed arrays merged in one pass, because a common word's list holds most pages of an
 * installation (90,000 in the growth benchmark's) and Maps of that size cost tens of ms.
 */
export interface Scores {
  keys: Uint32Array;
  scores: Float64Array;
  /** A lexeme's list read with its positions: the encoded rows, and each page's row and offset there. */
  positions?: { rows: Uint8Array[]; row: Uint32Array; offset: Uint32Array };
}

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
 * The pages of the given spaces that match, each scored by the sum of its lexemes' impacts, read
 * from the postings (one row per lexeme and space: the rows' versions in one statement, the lists
 * `cache` does not hold at those versions in a second), and for each lexeme of
 * `count` how many of them hold it. This is the cheap first stage of ranking: `bestPages` picks the
 * best of them, as many as the exact ranking asks for (again, without reading the postings again,
 * when it wants more), and the exact ranking reads the sections of those pages only. When a lexeme
 * every match must hold is in none of the spaces, the statement reads no list (a typo among the
 * words, "dashbord alert", read every space's lists of "alert" and the words it starts, only to
 * find nothing, before the corrections were tried).
 */
export async function matchingPages(
  db: Queryable,
  spaceKeys: readonly number[],
  match: PageMatch,
  count: readonly string[],
  cache: PostingsCache,
): Promise<{ scores: Scores; holders: number[] }> {
  const lexemes = new Set<string>(count);
  const prefixes = new Set<string>();
  const positional = new Set<string>();
  collect(match, lexemes, prefixes, positional);
  const needed = new Set<string>();
  required(match, needed);
  // Two index scans of the primary key: the lexemes themselves, and the prefixes' expansions,
  // once the primary key has shown that the spaces hold every required lexeme. This reads the
  // rows' versions only; the lists themselves come from the cache, or next for those it lacks.
  const r = await db.query<{ lexeme: string; space_key: number; version: string }>(
    `WITH held AS (
       SELECT NOT EXISTS (SELECT FROM unnest($4::text[]) AS n(lexeme)
                          WHERE NOT EXISTS (SELECT FROM rm_search_postings q WHERE q.lexeme = n.lexeme AND q.space_key = ANY($2::int[]))) AS all_held)
     SELECT lexeme, space_key, ${VERSION_SQL('rm_search_postings')} AS version
       FROM rm_search_postings WHERE lexeme = ANY($1::text[]) AND space_key = ANY($2::int[]) AND (SELECT all_held FROM held)
     UNION ALL
     SELECT p.lexeme, p.space_key, ${VERSION_SQL('p')}
       FROM (SELECT x.lexeme FROM unnest($3::text[]) AS u(prefix)
              CROSS JOIN LATERAL (
                SELECT lexeme FROM rm_search_postings
                 WHERE lexeme >= u.prefix AND lexeme < u.prefix || chr(1114111) AND space_key = ANY($2::int[])
                 GROUP BY lexeme ORDER BY sum(pages) DESC, lexeme LIMIT ${MAX_PREFIX_LEXEMES}) x
             WHERE NOT x.lexeme = ANY($1::text[]) AND (SELECT all_held FROM held)
             GROUP BY x.lexeme) e
       JOIN rm_search_postings p ON p.lexeme = e.lexeme AND p.space_key = ANY($2::int[])`,
    [[...lexemes], spaceKeys, [...prefixes], [...needed]],
    // One text for every query: parsed once per connection (0.43 -> 0.32 ms of backend CPU for "buffer").
    { name: 'quire_search_matching' },
  );
  // Each lexeme's lists decoded as one: kept as such while all of its rows are the ones decoded.
  const rowsOf = new Map<string, Array<{ lexeme: string; space_key: number; version: string }>>();
  for (const row of r.rows) {
    const rows = rowsOf.get(row.lexeme);
    if (rows) rows.push(row);
    else rowsOf.set(row.lexeme, [row]);
  }
  const lists = new Map<string, Scores>();
  const unread = [];
  // The rows' versions (`space@version`, in the order read) of each lexeme not kept decoded: its key to keep it once decoded.
  const unreadVersions = new Map<string, string[]>();
  for (const [lexeme, rows] of rowsOf) {
    const versions = rows.map((row) => `${row.space_key}@${row.version}`);
    const kept = cache.scores(lexeme, versions, positional.has(lexeme));
    if (kept) lists.set(lexeme, kept);
    else {
      unread.push(...rows);
      unreadVersions.set(lexeme, versions);
    }
  }
  const stored = await storedLists(db, unread, positional, cache);
  const parts = new Map<string, Array<{ list: StoredList; version: string } | undefined>>();
  for (const [i, row] of unread.entries()) {
    const kept = parts.get(row.lexeme);
    if (kept) kept.push(stored[i]);
    else parts.set(row.lexeme, [stored[i]]);
  }
  for (const [lexeme, read] of parts) {
    const found = read.filter((x) => x !== undefined);
    const scores = decodeByKey(found.map((x) => x.list));
    lists.set(lexeme, scores);
    // Rows gone or rewritten since their versions were read: used this once, not kept.
    const rows = rowsOf.get(lexeme)!;
    if (found.length === rows.length && found.every((x, i) => x.version === rows[i].version)) {
      cache.keepScores(lexeme, unreadVersions.get(lexeme)!, positional.has(lexeme), scores);
    }
  }
  const scores = evaluate(match, lists);
  const holders = count.map((lexeme) => {
    const list = lists.get(lexeme);
    return list ? common(scores.keys, list.keys) : 0;
  });
  return { scores, holders };
}

/** A postings row's version (see PostingsCache): its table and the transaction that wrote it. */
const VERSION_SQL = (row: string) => `${row}.tableoid::text || ':' || ${row}.xmin::text`;

/**
 * The lists of the rows (in their order; undefined for a row gone since its version was read),
 * each with the version it was read at: kept ones from the cache, the others read in one
 * statement (with their positions for the lexemes of `positional`) and kept.
 */
async function storedLists(
  db: Queryable,
  rows: ReadonlyArray<{ lexeme: string; space_key: number; version: string }>,
  positional: ReadonlySet<string>,
  cache: PostingsCache,
): Promise<Array<{ list: StoredList; version: string } | undefined>> {
  const out = rows.map((row) => {
    const list = cache.get(row.lexeme, row.space_key, row.version, positional.has(row.lexeme));
    return list && { list, version: row.version };
  });
  const missing = rows.filter((_, i) => !out[i]);
  if (missing.length === 0) return out;
  const read = await db.query<{ lexeme: string; space_key: number; version: string; entries: Uint8Array; positions: Uint8Array | null }>(
    `SELECT p.lexeme, p.space_key, ${VERSION_SQL('p')} AS version, p.entries, CASE WHEN x.positions THEN p.positions END AS positions
       FROM unnest($1::text[], $2::int[], $3::boolean[]) AS x(lexeme, space_key, positions)
       JOIN rm_search_postings p ON p.lexeme = x.lexeme AND p.space_key = x.space_key`,
    [missing.map((m) => m.lexeme), missing.map((m) => m.space_key), missing.map((m) => positional.has(m.lexeme))],
  );
  // A row rewritten since its version was read is used as read now (and kept at that version).
  const fresh = new Map<string, { list: StoredList; version: string }>();
  for (const row of read.rows) {
    const list = cache.set(row.lexeme, row.space_key, row.version, { entries: row.entries, positions: row.positions });
    fresh.set(`${row.space_key} ${row.lexeme}`, { list, version: row.version });
  }
  for (const [i, row] of rows.entries()) out[i] ??= fresh.get(`${row.space_key} ${row.lexeme}`);
  return out;
}

function collect(match: PageMatch, lexemes: Set<string>, prefixes: Set<string>, positional: Set<string>): void {
  if ('lexeme' in match) lexemes.add(match.lexeme);
  else if ('prefix' in match) prefixes.add(match.prefix);
  else if ('phrase' in match) {
    for (const lexeme of match.phrase) {
      lexemes.add(lexeme);
      positional.add(lexeme);
    }
  } else for (const m of 'all' in match ? match.all : 'any' in match ? match.any : match.of) collect(m, lexemes, prefixes, positional);
}

/** The lexemes every page matching `match` holds: all-of's plain lexemes and phrases' (not those of any-of, prefixes or at-least). */
function required(match: PageMatch, out: Set<string>): void {
  if ('lexeme' in match) out.add(match.lexeme);
  else if ('phrase' in match) for (const lexeme of match.phrase) out.add(lexeme);
  else if ('all' in match) for (const m of match.all) required(m, out);
}

const NONE: Scores = { keys: new Uint32Array(0), scores: new Float64Array(0) };

export function evaluate(match: PageMatch, lists: ReadonlyMap<string, Scores>): Scores {
  if ('lexeme' in match) return lists.get(match.lexeme) ?? NONE;
  if ('prefix' in match) {
    const started = [...lists].filter(([lexeme]) => lexeme.startsWith(match.prefix)).map(([, list]) => list);
    return merge(started, 1, true);
  }
  if ('phrase' in match) return phrase(match.phrase, lists);
  if ('all' in match) return merge(match.all.map((m) => evaluate(m, lists)), match.all.length, false);
  if ('any' in match) return merge(match.any.map((m) => evaluate(m, lists)), 1, false);
  return merge(match.of.map((m) => evaluate(m, lists)), match.atLeast, false);
}

/**
 * Pages where the lexemes follow each other in one section, scored by the sum of the impacts of
 * the distinct lexemes: the pages holding all of them, kept when their positions hold the chain.
 * Where positions are missing (none read, or none stored for a page), a page holding all of
 * them is kept: a candidate too many costs ranking, one too few a result.
 */
function phrase(lexemes: readonly string[], lists: ReadonlyMap<string, Scores>): Scores {
  const distinct = [...new Set(lexemes)];
  const parts = distinct.map((lexeme) => lists.get(lexeme) ?? NONE);
  const holding = merge(parts, parts.length, false);
  if (holding.keys.length === 0 || parts.some((p) => !p.positions)) return holding;
  return chained(holding, lexemes.map((lexeme) => parts[distinct.indexOf(lexeme)]));
}

/**
 * The pages of `holding` (each held by every list of `chain`) where the chain's lists hold some
 * position p in the first, p + 1 in the second, and so on (a repeated lexeme is one list walked
 * once per place). On each page the first list's positions are decoded as the starts still
 * possible; each next list is walked beside them, keeping the starts it continues, and only as far
 * as needed: the last stops at the first chain found. On the 84,000 pages holding both words of
 * "disk latency" this took half the time of decoding every position of both, then looking for the
 * chain. A two-word phrase, the usual one, is checked by `followedOnce` instead. A page with no
 * positions in some list is kept (unknown). The varints (see
 * `encodePositions`) are decoded in place, in this one loop, as `positionOffsetsInto` does: one
 * shared reader object (`at(bytes, pos)`, `next()`) for all of them made this walk 5–13% slower in
 * CPU (60,000 pages, two- and three-word phrases, interleaved with this code in one process).
 */
function chained(holding: Scores, chain: readonly Scores[]): Scores {
  const n = chain.length;
  const rows = chain.map((list) => list.positions!.rows);
  const row = chain.map((list) => list.positions!.row);
  const offset = chain.map((list) => list.positions!.offset);
  const at = new Uint32Array(n);
  let starts = new Int32Array(64);
  const keys = new Uint32Array(holding.keys.length);
  const scores = new Float64Array(holding.keys.length);
  let k = 0;
  pages: for (let i = 0; i < holding.keys.length; i++) {
    const key = holding.keys[i];
    let unknown = false;
    for (let c = 0; c < n; c++) {
      const keysOf = chain[c].keys;
      let a = at[c];
      while (keysOf[a] < key) a++;
      at[c] = a;
      if (rows[c][row[c][a]][offset[c][a]] === 0) unknown = true;
    }
    if (!unknown && n === 2) {
      if (!followedOnce(rows[0][row[0][at[0]]], offset[0][at[0]], rows[1][row[1][at[1]]], offset[1][at[1]])) continue pages;
    } else if (!unknown) {
      let b = rows[0][row[0][at[0]]];
      let pos = offset[0][at[0]];
      let x;
      let shift = 1;
      let count = 0;
      do {
        x = b[pos++];
        count += (x & 0x7f) * shift;
        shift *= 128;
      } while (x >= 0x80);
      if (starts.length < count) starts = new Int32Array(2 * count);
      let last = 0;
      for (let s = 0; s < count; s++) {
        let delta = 0;
        shift = 1;
        do {
          x = b[pos++];
          delta += (x & 0x7f) * shift;
          shift *= 128;
        } while (x >= 0x80);
        starts[s] = last += delta;
      }
      let live = count;
      for (let c = 1; c < n; c++) {
        b = rows[c][row[c][at[c]]];
        pos = offset[c][at[c]];
        let left = 0;
        shift = 1;
        do {
          x = b[pos++];
          left += (x & 0x7f) * shift;
          shift *= 128;
        } while (x >= 0x80);
        // The starts p whose p + c this list holds, moved to the front (the last list: one is enough).
        const final = c === n - 1;
        let kept = 0;
        let s = 0;
        last = 0;
        while (left > 0 && s < live && !(final && kept > 0)) {
          let delta = 0;
          shift = 1;
          do {
            x = b[pos++];
            delta += (x & 0x7f) * shift;
            shift *= 128;
          } while (x >= 0x80);
          left--;
          const start = (last += delta) - c;
          while (s < live && starts[s] < start) s++;
          if (s < live && starts[s] === start) starts[kept++] = starts[s++];
        }
        if (kept === 0) continue pages;
        live = kept;
      }
    }
    keys[k] = key;
    scores[k++] = holding.scores[i];
  }
  return { keys: keys.subarray(0, k), scores: scores.subarray(0, k) };
}

/**
 * Whether the positions encoded at `a[i]` hold some p whose p + 1 those at `b[j]` hold (both
 * counts non-zero): the two-word phrase of `chained`, walked as two cursors decoded as they go,
 * so that neither list is decoded past the first pair found (nor the first past the end of the
 * second). Where the pages hold one ("disk latency" on 84,000 pages of the growth benchmark's 100
 * spaces), the other is walked only as far as that pair, where decoding the first list whole as the
 * starts always read all of it: org search for the phrase took 36.2 -> 29.3 ms of CPU (see the commit).
 */
function followedOnce(a: Uint8Array, i: number, b: Uint8Array, j: number): boolean {
  let x;
  let shift = 1;
  let leftA = 0;
  do {
    x = a[i++];
    leftA += (x & 0x7f) * shift;
    shift *= 128;
  } while (x >= 0x80);
  let leftB = 0;
  shift = 1;
  do {
    x = b[j++];
    leftB += (x & 0x7f) * shift;
    shift *= 128;
  } while (x >= 0x80);
  // p: the last position read from a, plus one; q: the last read from b. Each step reads the next
  // position of the list behind (of both at the start), until they meet or one runs out.
  let p = 1;
  let q = 0;
  let readA = true;
  let readB = true;
  let delta;
  for (;;) {
    if (readA) {
      if (leftA-- === 0) return false;
      delta = 0;
      shift = 1;
      do {
        x = a[i++];
        delta += (x & 0x7f) * shift;
        shift *= 128;
      } while (x >= 0x80);
      p += delta;
    }
    if (readB) {
      if (leftB-- === 0) return false;
      delta = 0;
      shift = 1;
      do {
        x = b[j++];
        delta += (x & 0x7f) * shift;
        shift *= 128;
      } while (x >= 0x80);
      q += delta;
    }
    if (q === p) return true;
    readA = q > p;
    readB = q < p;
  }
}

/**
 * Pages in at least `needed` of the lists (each sorted by key), scored by the sum over the lists
 * holding them, or by the best of them (`max`). All of them and any of them, the usual cases, are
 * merged two lists at a time with no count per page.
 */
function merge(parts: Scores[], needed: number, max: boolean): Scores {
  if (parts.length === 0) return NONE;
  if (parts.length === 1) return needed <= 1 ? parts[0] : NONE;
  if (needed > parts.length) return NONE;
  if (needed === parts.length) {
    let acc = parts[0];
    for (let p = 1; p < parts.length && acc.keys.length > 0; p++) acc = intersect(acc, parts[p], max);
    return acc;
  }
  if (needed <= 1) {
    let acc = parts[0];
    for (let p = 1; p < parts.length; p++) acc = union(acc, parts[p], max);
    return acc;
  }
  return atLeast(parts, needed, max);
}

/** Pages in both lists. */
function intersect(a: Scores, b: Scores, max: boolean): Scores {
  const n = Math.min(a.keys.length, b.keys.length);
  const keys = new Uint32Array(n);
  const scores = new Float64Array(n);
  const ak = a.keys;
  const bk = b.keys;
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < ak.length && j < bk.length) {
    const ka = ak[i];
    const kb = bk[j];
    if (ka === kb) {
      keys[k] = ka;
      scores[k++] = max ? Math.max(a.scores[i], b.scores[j]) : a.scores[i] + b.scores[j];
      i++;
      j++;
    } else if (ka < kb) i++;
    else j++;
  }
  return { keys: keys.subarray(0, k), scores: scores.subarray(0, k) };
}

/** Pages in either list. */
function union(a: Scores, b: Scores, max: boolean): Scores {
  const n = a.keys.length + b.keys.length;
  const keys = new Uint32Array(n);
  const scores = new Float64Array(n);
  const ak = a.keys;
  const bk = b.keys;
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < ak.length && j < bk.length) {
    const ka = ak[i];
    const kb = bk[j];
    if (ka === kb) {
      keys[k] = ka;
      scores[k++] = max ? Math.max(a.scores[i], b.scores[j]) : a.scores[i] + b.scores[j];
      i++;
      j++;
    } else if (ka < kb) {
      keys[k] = ka;
      scores[k++] = a.scores[i++];
    } else {
      keys[k] = kb;
      scores[k++] = b.scores[j++];
    }
  }
  for (; i < ak.length; i++, k++) {
    keys[k] = ak[i];
    scores[k] = a.scores[i];
  }
  for (; j < bk.length; j++, k++) {
    keys[k] = bk[j];
    scores[k] = b.scores[j];
  }
  return { keys: keys.subarray(0, k), scores: scores.subarray(0, k) };
}

/** Pages in at least `needed` of the lists (1 < needed < lists): counted page by page. */
function atLeast(parts: Scores[], needed: number, max: boolean): Scores {
  let acc = { ...parts[0], counts: new Uint8Array(parts[0].keys.length).fill(1) };
  for (let p = 1; p < parts.length; p++) {
    const b = parts[p];
    const n = acc.keys.length + b.keys.length;
    const keys = new Uint32Array(n);
    const scores = new Float64Array(n);
    const counts = new Uint8Array(n);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < acc.keys.length && j < b.keys.length) {
      const ka = acc.keys[i];
      const kb = b.keys[j];
      if (ka === kb) {
        keys[k] = ka;
        scores[k] = max ? Math.max(acc.scores[i], b.scores[j]) : acc.scores[i] + b.scores[j];
        counts[k++] = acc.counts[i] + 1;
        i++;
        j++;
      } else if (ka < kb) {
        keys[k] = ka;
        scores[k] = acc.scores[i];
        counts[k++] = acc.counts[i++];
      } else {
        keys[k] = kb;
        scores[k] = b.scores[j++];
        counts[k++] = 1;
      }
    }
    for (; i < acc.keys.length; i++, k++) {
      keys[k] = acc.keys[i];
      scores[k] = acc.scores[i];
      counts[k] = acc.counts[i];
    }
    for (; j < b.keys.length; j++, k++) {
      keys[k] = b.keys[j];
      scores[k] = b.scores[j];
      counts[k] = 1;
    }
    acc = { keys: keys.subarray(0, k), scores: scores.subarray(0, k), counts: counts.subarray(0, k) };
  }
  let k = 0;
  const keys = new Uint32Array(acc.keys.length);
  const scores = new Float64Array(acc.keys.length);
  for (let i = 0; i < acc.keys.length; i++) {
    if (acc.counts[i] < needed) continue;
    keys[k] = acc.keys[i];
    scores[k++] = acc.scores[i];
  }
  return { keys: keys.subarray(0, k), scores: scores.subarray(0, k) };
}

/** How many keys two sorted lists share. */
function common(a: Uint32Array, b: Uint32Array): number {
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/**
 * One lexeme's lists of several spaces decoded as one list sorted by key (each is sorted already),
 * with their positions when read: straight into one set of arrays, not a set per list then copied.
 */
function decodeByKey(lists: readonly StoredList[]): Scores {
  const n = lists.reduce((sum, l) => sum + recordCount(l.entries), 0);
  const keys = new Uint32Array(n);
  const scores = new Float64Array(n);
  const withPositions = lists.every((l) => l.positions);
  const row = withPositions ? new Uint32Array(n) : undefined;
  const offset = withPositions ? new Uint32Array(n) : undefined;
  let k = 0;
  for (const [r, list] of lists.entries()) {
    const count = recordCount(list.entries);
    decodeRecordsInto(list.entries, keys, scores, k);
    if (row) {
      row.fill(r, k, k + count);
      positionOffsetsInto(list.positions!, count, offset!, k);
    }
    k += count;
  }
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (keys[i] < keys[i - 1]) sorted = false;
  const rows = withPositions ? lists.map((l) => l.positions!) : [];
  if (sorted) return { keys, scores, ...(row ? { positions: { rows, row, offset: offset! } } : {}) };
  // Key and position packed in one double (keys < 2^32, positions < 2^21): a native numeric sort.
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = keys[i] * 2 ** 21 + i;
  packed.sort();
  const outKeys = new Uint32Array(n);
  const outScores = new Float64Array(n);
  const outRow = row ? new Uint32Array(n) : undefined;
  const outOffset = row ? new Uint32Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const at = packed[i] % 2 ** 21;
    outKeys[i] = keys[at];
    outScores[i] = scores[at];
    if (outRow) {
      outRow[i] = row![at];
      outOffset![i] = offset![at];
    }
  }
  return { keys: outKeys, scores: outScores, ...(outRow ? { positions: { rows, row: outRow, offset: outOffset! } } : {}) };
}

/** The `limit` best pages, by score then key (so that ties are cut the same way every time); `found` is left as it was. */
export function bestPages(found: Scores, limit: number): Omit<PageCandidates, 'holders'> {
  const total = found.keys.length;
  if (total <= limit) return { keys: Array.from(found.keys), total, truncated: false };
  const threshold = kthLargest(found.scores, limit);
  const keys: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < total; i++) {
    if (found.scores[i] > threshold) keys.push(found.keys[i]);
    else if (found.scores[i] === threshold) at.push(found.keys[i]);
  }
  // `at` is in key order already.
  return { keys: keys.concat(at.slice(0, limit - keys.length)), total, truncated: true };
}

/**
 * The k-th largest value (1-based, 1 <= k <= length) of `values`, left as they were: the smallest
 * of the k largest seen, kept in a min-heap of k. Over a common word's 90,000 pages a value rarely
 * enters the heap (about k ln(n / k) times in all), so this is one pass of comparisons, where a
 * quickselect of a copy wrote 720 KB and partitioned it several times (1.1 -> 0.8 ms of CPU for
 * "buffer"'s 90,100 pages and 1,497 ties at the cut, see the commit).
 */
function kthLargest(values: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    // Sift up.
    let at = i;
    const v = values[i];
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (heap[up] <= v) break;
      heap[at] = heap[up];
      at = up;
    }
    heap[at] = v;
  }
  for (let i = k; i < values.length; i++) {
    const v = values[i];
    if (v <= heap[0]) continue;
    // Replace the smallest, sift down.
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= k) break;
      const child = left + 1 < k && heap[left + 1] < heap[left] ? left + 1 : left;
      if (heap[child] >= v) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = v;
  }
  return heap[0];
}
