/**
 * A lexeme's postings in one space: the pages holding it, each with its impact (what the page's
 * best section ranks for the lexeme alone, plus its title's share; see `pageImpacts`). Stored as
 * one `bytea` of 8-byte records (page key: uint32, impact: float32, little-endian) sorted by page
 * key: a list of 1,000 pages is 8 KB read in one row, decoded without parsing, and merged with
 * others in one pass.
 */
export interface Postings {
  keys: Uint32Array;
  impacts: Float32Array;
}

const RECORD = 8;

export function encodePostings(keys: ArrayLike<number>, impacts: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(keys.length * RECORD);
  const view = new DataView(out.buffer);
  for (let i = 0; i < keys.length; i++) {
    view.setUint32(i * RECORD, keys[i], true);
    view.setFloat32(i * RECORD + 4, impacts[i], true);
  }
  return out;
}

export function decodePostings(bytes: Uint8Array): Postings {
  const n = Math.floor(bytes.byteLength / RECORD);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keys = new Uint32Array(n);
  const impacts = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    keys[i] = view.getUint32(i * RECORD, true);
    impacts[i] = view.getFloat32(i * RECORD + 4, true);
  }
  return { keys, impacts };
}

/**
 * `current` without the pages in `removed`, with `added` (page key -> impact) merged in by key.
 * Keys in `added` replace the same keys in `current`.
 */
export function patchPostings(current: Postings | undefined, removed: ReadonlySet<number>, added: ReadonlyMap<number, number>): Postings {
  const keys: number[] = [];
  const impacts: number[] = [];
  const fresh = [...added.keys()].sort((a, b) => a - b);
  let f = 0;
  const n = current?.keys.length ?? 0;
  for (let i = 0; i < n; i++) {
    const key = current!.keys[i];
    while (f < fresh.length && fresh[f] < key) {
      keys.push(fresh[f]);
      impacts.push(added.get(fresh[f])!);
      f++;
    }
    if (removed.has(key) || added.has(key)) continue;
    keys.push(key);
    impacts.push(current!.impacts[i]);
  }
  for (; f < fresh.length; f++) {
    keys.push(fresh[f]);
    impacts.push(added.get(fresh[f])!);
  }
  return { keys: Uint32Array.from(keys), impacts: Float32Array.from(impacts) };
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
