/**
 * A lexeme's postings in one space: the pages holding it, each with its impact (what the page's
 * best section ranks for the lexeme alone, plus its title's share; see `pageImpacts`). Stored as
 * one `bytea` of 8-byte records (page key: uint32, impact: float32, little-endian) sorted by page
 * key: a list of 1,000 pages is 8 KB read in one row, decoded without parsing, and merged with
 * others in one pass.
 *
 * Beside them, in another `bytea` read only for phrases, each page's positions of the lexeme
 * (see `pagePosition`), in the same order: a varint count, then the positions as varint deltas.
 * A phrase is then checked on the postings, like a word, instead of by ranking every page that
 * holds its words in any order.
 */
export interface Postings {
  keys: Uint32Array;
  impacts: Float32Array;
  /** The encoded positions and where each page's start (one offset per key, and the end). */
  positions?: { bytes: Uint8Array; offsets: Uint32Array };
}

/** A page's entry in a lexeme's postings, as the indexer computes it. */
export interface PostingEntry {
  impact: number;
  /** Ascending page positions (see `pagePosition`). */
  positions: number[];
}

const RECORD = 8;
/** Section positions stay below this (PostgreSQL's tsvector positions end at 16,383). */
const SECTION_SPAN = 16_384;

/**
 * A position in the page: its section's rank times SECTION_SPAN plus the position in the
 * section's tsvector. Two lexemes are neighbours in a section exactly when their page positions
 * differ by one (no tsvector position is 0, so a section's last position and the next section's
 * first never are).
 */
export function pagePosition(ord: number, position: number): number {
  return ord * SECTION_SPAN + position;
}

export function encodePostings(keys: ArrayLike<number>, impacts: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(keys.length * RECORD);
  const view = new DataView(out.buffer);
  for (let i = 0; i < keys.length; i++) {
    view.setUint32(i * RECORD, keys[i], true);
    view.setFloat32(i * RECORD + 4, impacts[i], true);
  }
  return out;
}

export function decodePostings(bytes: Uint8Array, positions?: Uint8Array | null): Postings {
  const n = recordCount(bytes);
  const keys = new Uint32Array(n);
  const impacts = new Float32Array(n);
  decodeRecordsInto(bytes, keys, impacts, 0);
  if (!positions) return { keys, impacts };
  const offsets = new Uint32Array(n + 1);
  offsets[n] = positionOffsetsInto(positions, n, offsets, 0);
  return { keys, impacts, positions: { bytes: positions, offsets } };
}

/** How many pages an encoded list holds. */
export function recordCount(bytes: Uint8Array): number {
  return Math.floor(bytes.byteLength / RECORD);
}

/**
 * The records of `bytes` written to `keys` and `impacts` from index `at` on (several spaces' lists
 * of a lexeme are decoded into one pair of arrays, with no copy per list).
 */
export function decodeRecordsInto(bytes: Uint8Array, keys: Uint32Array, impacts: Float32Array | Float64Array, at: number): void {
  const n = recordCount(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) {
    keys[at + i] = view.getUint32(i * RECORD, true);
    impacts[at + i] = view.getFloat32(i * RECORD + 4, true);
  }
}

/** Where each of the `n` pages' positions start in `bytes`, written to `offsets` from index `at` on; returns where the last ends. */
export function positionOffsetsInto(bytes: Uint8Array, n: number, offsets: Uint32Array, at: number): number {
  let pos = 0;
  for (let i = 0; i < n; i++) {
    offsets[at + i] = pos;
    // The count, then as many varints: each ends at a byte below 0x80.
    let count = 0;
    let shift = 1;
    let b;
    do {
      b = bytes[pos++];
      count += (b & 0x7f) * shift;
      shift *= 128;
    } while (b >= 0x80);
    for (let k = 0; k < count; k++) while (bytes[pos++] >= 0x80);
  }
  return pos;
}

/** The positions encoded at `offset` (see `encodePositions`). */
export function readPositions(bytes: Uint8Array, offset: number): number[] {
  const out: number[] = [];
  out.length = readPositionsInto(bytes, offset, out);
  return out;
}

/** The positions encoded at `offset` written to the start of `into`; returns how many. */
export function readPositionsInto(bytes: Uint8Array, offset: number, into: number[]): number {
  let at = offset;
  let count = 0;
  let shift = 1;
  let b;
  do {
    b = bytes[at++];
    count += (b & 0x7f) * shift;
    shift *= 128;
  } while (b >= 0x80);
  let last = 0;
  for (let k = 0; k < count; k++) {
    let delta = 0;
    shift = 1;
    do {
      b = bytes[at++];
      delta += (b & 0x7f) * shift;
      shift *= 128;
    } while (b >= 0x80);
    into[k] = last += delta;
  }
  return count;
}

/** Growable bytes for positions. */
class ByteWriter {
  bytes = new Uint8Array(1024);
  length = 0;

  reset(): this {
    this.length = 0;
    return this;
  }

  varint(value: number): void {
    if (this.length + 10 > this.bytes.length) this.grow(this.length + 10);
    const bytes = this.bytes;
    let at = this.length;
    if (value < 0x80000000) {
      while (value >= 0x80) {
        bytes[at++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
    } else {
      while (value >= 0x80) {
        bytes[at++] = (value % 0x80) | 0x80;
        value = Math.floor(value / 0x80);
      }
    }
    bytes[at++] = value;
    this.length = at;
  }

  private grow(size: number): void {
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, size));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  positions(list: readonly number[]): void {
    this.varint(list.length);
    let last = 0;
    for (const p of list) {
      this.varint(p - last);
      last = p;
    }
  }

  copy(slice: Uint8Array): void {
    if (this.length + slice.length > this.bytes.length) this.grow(this.length + slice.length);
    this.bytes.set(slice, this.length);
    this.length += slice.length;
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** The positions written by `patchPostings`, one list after another (copied out each time). */
const scratch = new ByteWriter();

/** Each page's positions, in key order, as stored (see `Postings`). */
export function encodePositions(lists: ReadonlyArray<readonly number[]>): Uint8Array {
  const w = new ByteWriter();
  for (const list of lists) w.positions(list);
  return w.done();
}

/**
 * `current` without the pages in `removed`, with `added` (page key -> entry) merged in by key:
 * keys and impacts, and the positions encoded. Keys in `added` replace the same keys in `current`.
 * A page of `current` whose positions were not read is kept with none (an index built before
 * positions were stored is rebuilt whole).
 */
export function patchPostings(
  current: Postings | undefined,
  removed: ReadonlySet<number>,
  added: ReadonlyMap<number, PostingEntry>,
): { keys: Uint32Array; impacts: Float32Array; positions: Uint8Array } {
  const keys: number[] = [];
  const impacts: number[] = [];
  const positions = scratch.reset();
  const fresh = [...added.keys()].sort((a, b) => a - b);
  const stored = current?.positions;
  // Kept pages' positions are copied a run of neighbours at a time: [run, i) of the stored ones.
  let run = 0;
  const flush = (i: number) => {
    if (stored && run < i) positions.copy(stored.bytes.subarray(stored.offsets[run], stored.offsets[i]));
  };
  const push = (key: number) => {
    const entry = added.get(key)!;
    keys.push(key);
    impacts.push(entry.impact);
    positions.positions(entry.positions);
  };
  let f = 0;
  const n = current?.keys.length ?? 0;
  for (let i = 0; i < n; i++) {
    const key = current!.keys[i];
    if (f < fresh.length && fresh[f] < key) {
      flush(i);
      run = i;
      while (f < fresh.length && fresh[f] < key) push(fresh[f++]);
    }
    if (removed.has(key) || added.has(key)) {
      flush(i);
      run = i + 1;
      continue;
    }
    keys.push(key);
    impacts.push(current!.impacts[i]);
    if (!stored) positions.varint(0);
  }
  flush(n);
  for (; f < fresh.length; f++) push(fresh[f]);
  return { keys: Uint32Array.from(keys), impacts: Float32Array.from(impacts), positions: positions.done().slice() };
}
