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

/** Pages entering a lexeme's postings, as the indexer computes them: by page key, ascending. */
export interface FreshPostings {
  keys: ArrayLike<number>;
  impacts: ArrayLike<number>;
  /** Each page's ascending page positions (see `pagePosition`). */
  positions: ReadonlyArray<readonly number[]>;
}

const NO_FRESH: FreshPostings = { keys: [], impacts: [], positions: [] };

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

/** Whether this machine's typed arrays are little-endian, as the records are (every platform Node runs on). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export function encodePostings(keys: ArrayLike<number>, impacts: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(keys.length * RECORD);
  if (LITTLE_ENDIAN) {
    // Written through word views of the record bytes: no DataView call per field.
    const words = new Uint32Array(out.buffer);
    const floats = new Float32Array(out.buffer);
    for (let i = 0; i < keys.length; i++) {
      words[2 * i] = keys[i];
      floats[2 * i + 1] = impacts[i];
    }
    return out;
  }
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

/** Bytes of the longest varint written (a position below 2^53 takes at most 8). */
const MAX_VARINT = 8;

/** `value` (a non-negative integer) as a varint at `at` of `bytes`, which has room; returns where it ends. */
function writeVarint(bytes: Uint8Array, at: number, value: number): number {
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
  return at;
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
    if (this.length + MAX_VARINT > this.bytes.length) this.grow(this.length + MAX_VARINT);
    this.length = writeVarint(this.bytes, this.length, value);
  }

  private grow(size: number): void {
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, size));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** A page's list: its count, then the positions as deltas (room made once for the whole list). */
  positions(list: readonly number[]): void {
    const room = (list.length + 1) * MAX_VARINT;
    if (this.length + room > this.bytes.length) this.grow(this.length + room);
    const bytes = this.bytes;
    let at = writeVarint(bytes, this.length, list.length);
    let last = 0;
    for (let k = 0; k < list.length; k++) {
      const p = list[k];
      at = writeVarint(bytes, at, p - last);
      last = p;
    }
    this.length = at;
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
 * `current` without the pages in `removed`, with `fresh` merged in by key: keys and impacts, and
 * the positions encoded. Keys in `fresh` replace the same keys in `current`. A page of `current`
 * whose positions were not read is kept with none (an index built before positions were stored is
 * rebuilt whole).
 */
export function patchPostings(
  current: Postings | undefined,
  removed: ReadonlySet<number>,
  fresh: FreshPostings = NO_FRESH,
): { keys: Uint32Array; impacts: Float32Array; positions: Uint8Array } {
  const n = current?.keys.length ?? 0;
  const m = fresh.keys.length;
  const keys = new Uint32Array(n + m);
  const impacts = new Float32Array(n + m);
  let out = 0;
  const positions = scratch.reset();
  const stored = current?.positions;
  // Kept pages' positions are copied a run of neighbours at a time: [run, i) of the stored ones.
  let run = 0;
  const flush = (i: number) => {
    if (stored && run < i) positions.copy(stored.bytes.subarray(stored.offsets[run], stored.offsets[i]));
  };
  const push = (f: number) => {
    keys[out] = fresh.keys[f];
    impacts[out++] = fresh.impacts[f];
    positions.positions(fresh.positions[f]);
  };
  let f = 0;
  for (let i = 0; i < n; i++) {
    const key = current!.keys[i];
    if (f < m && fresh.keys[f] < key) {
      flush(i);
      run = i;
      while (f < m && fresh.keys[f] < key) push(f++);
    }
    if (removed.has(key) || (f < m && fresh.keys[f] === key)) {
      flush(i);
      run = i + 1;
      continue;
    }
    keys[out] = key;
    impacts[out++] = current!.impacts[i];
    if (!stored) positions.varint(0);
  }
  flush(n);
  while (f < m) push(f++);
  return { keys: keys.subarray(0, out), impacts: impacts.subarray(0, out), positions: positions.done().slice() };
}
