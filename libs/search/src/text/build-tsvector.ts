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
 * A tsvector in PostgreSQL's binary format (see `writeBinary`) for weighted token lists: each
 * word is stored as itself (exact and prefix matches, stop words included) and, at the same
 * position, as its stems (language-aware matches); CJK grams as themselves. Fields are
 * separated by an unused position so that a phrase never spans two of them. Text past
 * PostgreSQL's last position is left out (such giant sections would otherwise pile onto it and
 * approach the 1 MB tsvector limit).
 * With `page`, also raises each lexeme's entry in `impacts` to what `ts_rank(RANK_WEIGHTS,
 * tsvector, lexeme, 1)` gives the section for that lexeme alone (so a map shared by a page's
 * sections ends with the page's best section), and appends the positions the tsvector holds for
 * each lexeme to `positions`, as page positions of section `ord` (see `pagePosition`).
 */
export function buildTsvector(
  fields: readonly WeightedTokens[],
  lexemesOf: (word: string) => readonly string[],
  page?: { impacts: Map<string, number>; positions: Map<string, number[]>; ord: number },
): Buffer {
  // Entries (position and weight, one number each) are chained per lexeme in scratch arrays
  // shared by every call, and the vector is written once, as bytes: the strings and arrays of
  // each lexeme of each section were most of a large import's indexing allocations, and so of
  // its GC.
  const slots = new Map<string, number>();
  const lexemes: string[] = [];
  // Each lexeme's list of page positions (shared by the page's sections, appended in order).
  const held: number[][] = [];
  const base = page ? pagePosition(page.ord, 0) : 0;
  let entryCount = 0;
  const add = (lexeme: string, entry: number, w: number, position: number) => {
    let slot = slots.get(lexeme);
    if (slot === undefined) {
      slot = lexemes.length;
      slots.set(lexeme, slot);
      lexemes.push(lexeme);
      scratch.slot(slot);
      scratch.head[slot] = entryCount;
      scratch.count[slot] = 1;
      scratch.sum[slot] = w;
      scratch.maxWeight[slot] = w;
      scratch.maxAt[slot] = 0;
      if (page) {
        let list = page.positions.get(lexeme);
        if (!list) page.positions.set(lexeme, (list = []));
        list.push(base + position);
        held.push(list);
      }
    } else if (scratch.count[slot] < MAX_POSITIONS) {
      // A lexeme twice at one position (a word and a stem alike) is one position of the tsvector.
      if (page && held[slot][held[slot].length - 1] !== base + position) held[slot].push(base + position);
      scratch.next[scratch.tail[slot]] = entryCount;
      const j = scratch.count[slot]++;
      scratch.sum[slot] += w / ((j + 1) * (j + 1));
      if (w > scratch.maxWeight[slot]) {
        scratch.maxWeight[slot] = w;
        scratch.maxAt[slot] = j;
      }
    } else return;
    scratch.entry(entryCount);
    scratch.value[entryCount] = entry;
    scratch.tail[slot] = entryCount++;
  };
  let position = 0;
  for (const field of fields) {
    const { tokens, weight } = field;
    if (tokens.length === 0) continue;
    const code = WEIGHT_CODE[weight];
    const w = WEIGHT_VALUE[weight];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      position++;
      if (!token) continue;
      if (position > MAX_POSITION) break;
      const entry = position * 256 + code;
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
    const norm = Math.log2(entryCount + 1);
    for (let i = 0; i < lexemes.length; i++) {
      const j = scratch.maxAt[i];
      const maxWeight = scratch.maxWeight[i];
      const rank = (maxWeight + scratch.sum[i] - maxWeight / ((j + 1) * (j + 1))) / PI2_6 / norm;
      const had = impacts.get(lexemes[i]);
      if (had === undefined || rank > had) impacts.set(lexemes[i], rank);
    }
  }
  return writeBinary(lexemes);
}

/** The weight in a binary tsvector's position word (its two high bits): D, the default, is 0. */
const WEIGHT_CODE: Record<Weight, number> = { A: 3, B: 2, C: 1, D: 0 };

/**
 * buildTsvector's working arrays, by lexeme slot and by entry, kept from one call to the next
 * (calls never overlap: buildTsvector does not await) and grown as needed; `bytes` holds the
 * vector being written.
 */
class TsvectorScratch {
  head = new Int32Array(1024);
  tail = new Int32Array(1024);
  count = new Int32Array(1024);
  sum = new Float64Array(1024);
  maxWeight = new Float64Array(1024);
  maxAt = new Int32Array(1024);
  value = new Int32Array(8192);
  next = new Int32Array(8192);
  bytes = Buffer.allocUnsafe(64 * 1024);

  /** Makes room for slot `i`. */
  slot(i: number): void {
    if (i < this.head.length) return;
    const size = this.head.length * 2;
    this.head = grown(this.head, size);
    this.tail = grown(this.tail, size);
    this.count = grown(this.count, size);
    this.sum = grown(this.sum, size);
    this.maxWeight = grown(this.maxWeight, size);
    this.maxAt = grown(this.maxAt, size);
  }

  /** Makes room for entry `i`. */
  entry(i: number): void {
    if (i < this.value.length) return;
    const size = this.value.length * 2;
    this.value = grown(this.value, size);
    this.next = grown(this.next, size);
  }
}

function grown<T extends Int32Array | Float64Array>(array: T, size: number): T {
  const out = new (array.constructor as new (size: number) => T)(size);
  out.set(array);
  return out;
}

const scratch = new TsvectorScratch();

/**
 * The vector as PostgreSQL sends and receives it (tsvectorsend / tsvectorrecv): the lexeme count,
 * then each lexeme as UTF-8 with a NUL, its position count and its positions (two bytes each: the
 * weight in the two high bits, the position in the others). Sent so, PostgreSQL copies it instead
 * of parsing a literal: on a 1,000-page import, parsing the sections' literals was most of their
 * INSERT. PostgreSQL sorts the lexemes itself; the positions must be strictly increasing, so an
 * entry at the position of the one before it (the same lexeme twice for one word) merges into it,
 * keeping the stronger weight, as a literal's parse does.
 */
function writeBinary(lexemes: readonly string[]): Buffer {
  let bytes = scratch.bytes;
  let at = 4;
  bytes.writeInt32BE(lexemes.length, 0);
  for (let i = 0; i < lexemes.length; i++) {
    const text = lexemes[i];
    const count = scratch.count[i];
    // At most 3 bytes per UTF-16 unit, a NUL, the count and 2 bytes per entry.
    const room = text.length * 3 + 3 + count * 2;
    if (at + room > bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(bytes.length * 2, at + room));
      bytes.copy(bigger, 0, 0, at);
      bytes = scratch.bytes = bigger;
    }
    at += bytes.write(text, at, 'utf8');
    bytes[at++] = 0;
    const countAt = at;
    at += 2;
    let written = 0;
    let last = -1;
    let e = scratch.head[i];
    for (let k = 0; k < count; k++, e = scratch.next[e]) {
      const entry = scratch.value[e];
      const position = entry >> 8;
      const weight = entry & 0xff;
      if (position === last) {
        if (weight > bytes[at - 2] >> 6) bytes[at - 2] = (weight << 6) | (position >> 8);
        continue;
      }
      bytes[at++] = (weight << 6) | (position >> 8);
      bytes[at++] = position & 0xff;
      last = position;
      written++;
    }
    bytes.writeUInt16BE(written, countAt);
  }
  return Buffer.from(bytes.subarray(0, at));
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
export function tsvectorOf(fields: ReadonlyArray<{ text: string; weight: Weight }>, lexemesOf: (word: string) => readonly string[]): Buffer {
  return buildTsvector(fields.map((f) => ({ tokens: textTokens(f.text), weight: f.weight })), lexemesOf);
}

export function quoteLexeme(lexeme: string): string {
  if (lexeme.indexOf("'") < 0 && lexeme.indexOf('\\') < 0) return "'" + lexeme + "'";
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
