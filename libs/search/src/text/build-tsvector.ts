import { RANK_WEIGHTS } from '../ranking';
import { textTokens } from './tokenize';
import { Lexicon, SKIPPED } from './lexicon';
import { pagePosition } from '../postings/postings';

export type Weight = 'A' | 'B' | 'C' | 'D';

export interface WeightedTokens {
  /** From `textTokens`. */
  tokens: readonly string[];
  weight: Weight;
}

const WEIGHT_VALUE: Record<Weight, number> = { D: RANK_WEIGHTS[0], C: RANK_WEIGHTS[1], B: RANK_WEIGHTS[2], A: RANK_WEIGHTS[3] };

/** The last generation of NumberSlots' Int32Array stamps. */
const MAX_GENERATION = 0x7fffffff;

/** PostgreSQL keeps at most 256 positions per lexeme and positions up to 16,383. */
const MAX_POSITIONS = 256;
const MAX_POSITION = 16_383;

/** Token lists of a section as numbers (`Lexicon.tokens`), with their field's weight. */
export interface NumberedTokens {
  tokens: Int32Array;
  weight: Weight;
}

/**
 * One page's lexemes, as its sections' tsvectors are built (`vectorOf`): for each, the page
 * positions the tsvectors hold (see `pagePosition`) and its impact, what `ts_rank(RANK_WEIGHTS,
 * tsvector, lexeme, 1)` gives the page's best section for that lexeme alone. `ids[k]`,
 * `impacts[k]` and `positions[k]` are one lexeme's, in the order the page first met them.
 */
export class PageLexemes {
  /** The section being built. */
  ord = 0;
  readonly ids: number[] = [];
  readonly impacts: number[] = [];
  readonly positions: number[][] = [];

  /** The lexeme's entry, or -1. */
  indexOf(id: number): number {
    return claimPageSlots(this).get(id);
  }

  /** The lexeme's list of positions, started (with an impact below any rank) when it has none. */
  positionsOf(id: number): number[] {
    const slots = claimPageSlots(this);
    const k = slots.get(id);
    if (k >= 0) return this.positions[k];
    slots.set(id, this.ids.length);
    this.ids.push(id);
    this.impacts.push(-Infinity);
    const list: number[] = [];
    this.positions.push(list);
    return list;
  }
}

/**
 * A slot number per lexeme number, all emptied at once by `clear` (a new generation: a slot is
 * only what was set since), so nothing is reset lexeme by lexeme between calls.
 */
class NumberSlots {
  /** Starts at 1: the stamps of new entries (0) belong to no generation. */
  private generation = 1;
  private stamp = new Int32Array(4096);
  private slots = new Int32Array(4096);

  clear(): void {
    // Stamps are Int32Array entries: past the last generation, they are cleared and counted again.
    if (this.generation === MAX_GENERATION) {
      this.stamp.fill(0);
      this.generation = 0;
    }
    this.generation++;
  }

  /** The slot of a lexeme, or -1. */
  get(id: number): number {
    return id < this.stamp.length && this.stamp[id] === this.generation ? this.slots[id] : -1;
  }

  set(id: number, slot: number): void {
    if (id >= this.stamp.length) {
      const size = Math.max(this.stamp.length * 2, id + 1);
      this.stamp = grown(this.stamp, size);
      this.slots = grown(this.slots, size);
    }
    this.stamp[id] = this.generation;
    this.slots[id] = slot;
  }
}

/**
 * Where each lexeme of one page is in its PageLexemes, shared by every page (pages are built one
 * at a time: nothing awaits while a page's sections are built). A page built after another takes
 * the slots back, setting its lexemes' again.
 */
const pageSlots = { owner: undefined as PageLexemes | undefined, slots: new NumberSlots() };

function claimPageSlots(page: PageLexemes): NumberSlots {
  if (pageSlots.owner !== page) {
    pageSlots.owner = page;
    pageSlots.slots.clear();
    page.ids.forEach((id, k) => pageSlots.slots.set(id, k));
  }
  return pageSlots.slots;
}

/**
 * A tsvector in PostgreSQL's binary format (see `writeBinary`) for a section's numbered token
 * lists: each word is stored as itself (exact and prefix matches, stop words included) and, at
 * the same position, as its stems (language-aware matches); CJK grams as themselves. Fields are
 * separated by an unused position so that a phrase never spans two of them. Text past
 * PostgreSQL's last position is left out (such giant sections would otherwise pile onto it and
 * approach the 1 MB tsvector limit).
 * With `page`, also raises each lexeme's impact there to what the section gives it, and appends
 * the positions the tsvector holds for each lexeme, as page positions of section `page.ord`.
 */
export function vectorOf(fields: readonly NumberedTokens[], lexicon: Lexicon, page?: PageLexemes): Buffer {
  // Entries (position and weight, one number each) are chained per lexeme in scratch arrays
  // shared by every call, and the vector is written once, as bytes; a lexeme's slot in them is
  // found by its number, not by its text.
  scratch.slotOf.clear();
  let lexemeCount = 0;
  const base = page ? pagePosition(page.ord, 0) : 0;
  let entryCount = 0;
  const add = (id: number, entry: number, w: number, position: number) => {
    let slot = scratch.slotOf.get(id);
    if (slot < 0) {
      slot = lexemeCount++;
      scratch.slotOf.set(id, slot);
      scratch.slot(slot);
      scratch.lexeme[slot] = id;
      scratch.head[slot] = entryCount;
      scratch.count[slot] = 1;
      scratch.sum[slot] = w;
      scratch.maxWeight[slot] = w;
      scratch.maxAt[slot] = 0;
      if (page) {
        const list = page.positionsOf(id);
        list.push(base + position);
        scratch.held[slot] = list;
      }
    } else {
      if (scratch.count[slot] >= MAX_POSITIONS) return;
      // A lexeme twice at one position (a word and a stem alike) is one position of the tsvector.
      if (page) {
        const list = scratch.held[slot];
        if (list[list.length - 1] !== base + position) list.push(base + position);
      }
      scratch.next[scratch.tail[slot]] = entryCount;
      const j = scratch.count[slot]++;
      scratch.sum[slot] += w / ((j + 1) * (j + 1));
      if (w > scratch.maxWeight[slot]) {
        scratch.maxWeight[slot] = w;
        scratch.maxAt[slot] = j;
      }
    }
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
      const id = tokens[i];
      position++;
      if (id === SKIPPED) continue;
      if (position > MAX_POSITION) break;
      const entry = position * 256 + code;
      add(id, entry, w, position);
      if (lexicon.isCjk(id)) {
        // The last character of a run is in no chunk as a first character: it is indexed on its
        // own too (at the last chunk's position), so a one-character query (`'x':*`) finds it.
        // A bigram followed by another that starts with its last character needs nothing more:
        // that character is found as the prefix of the next one.
        const last = lexicon.lastCharOf(id);
        const next = tokens[i + 1];
        if (last !== SKIPPED && (next === undefined || next === SKIPPED || !lexicon.text(next).startsWith(lexicon.text(last)))) add(last, entry, w, position);
        continue;
      }
      const stems = lexicon.stemsOf(id);
      for (let k = 0; k < stems.length; k++) add(stems[k], entry, w, position);
    }
    position++;
  }
  if (page) {
    const norm = Math.log2(entryCount + 1);
    for (let i = 0; i < lexemeCount; i++) {
      const j = scratch.maxAt[i];
      const maxWeight = scratch.maxWeight[i];
      const rank = (maxWeight + scratch.sum[i] - maxWeight / ((j + 1) * (j + 1))) / PI2_6 / norm;
      const k = page.indexOf(scratch.lexeme[i]);
      if (rank > page.impacts[k]) page.impacts[k] = rank;
    }
  }
  return writeBinary(lexicon, lexemeCount);
}

/** `vectorOf` for token lists as text (titles, and tests): numbers them in a lexicon of their own. */
export function buildTsvector(fields: readonly WeightedTokens[], lexemesOf: (word: string) => readonly string[]): Buffer {
  const lexicon = new Lexicon(lexemesOf);
  const numbered = fields.map((f) => ({ tokens: lexicon.tokens(f.tokens), weight: f.weight }));
  lexicon.prepare();
  return vectorOf(numbered, lexicon);
}

/** The weight in a binary tsvector's position word (its two high bits): D, the default, is 0. */
const WEIGHT_CODE: Record<Weight, number> = { A: 3, B: 2, C: 1, D: 0 };

/**
 * vectorOf's working arrays, by lexeme number, by lexeme slot and by entry, kept from one call to
 * the next (calls never overlap: vectorOf does not await) and grown as needed; `bytes` holds the
 * vector being written.
 */
class TsvectorScratch {
  /** By lexeme number: its slot in this call. */
  readonly slotOf = new NumberSlots();
  /** By slot: the lexeme's number, and its page's list of positions (PageLexemes). */
  lexeme = new Int32Array(1024);
  held: number[][] = [];
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
    this.lexeme = grown(this.lexeme, size);
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
function writeBinary(lexicon: Lexicon, lexemeCount: number): Buffer {
  let bytes = scratch.bytes;
  let at = 4;
  bytes.writeInt32BE(lexemeCount, 0);
  for (let i = 0; i < lexemeCount; i++) {
    const text = lexicon.utf8Of(scratch.lexeme[i]);
    const count = scratch.count[i];
    // The UTF-8, a NUL, the count and 2 bytes per entry.
    const room = text.byteLength + 3 + count * 2;
    if (at + room > bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(bytes.length * 2, at + room));
      bytes.copy(bigger, 0, 0, at);
      bytes = scratch.bytes = bigger;
    }
    at += text.copy(bytes, at);
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

/** Convenience for short texts (titles): tokenizes, then builds. */
export function tsvectorOf(fields: ReadonlyArray<{ text: string; weight: Weight }>, lexemesOf: (word: string) => readonly string[]): Buffer {
  return buildTsvector(fields.map((f) => ({ tokens: textTokens(f.text), weight: f.weight })), lexemesOf);
}

export function quoteLexeme(lexeme: string): string {
  if (lexeme.indexOf("'") < 0 && lexeme.indexOf('\\') < 0) return "'" + lexeme + "'";
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
