/** A version 2 pack index (`.idx`): sorted object ids and each one's offset in its pack. */
export interface PackIndex {
  /** Object ids, 20 bytes each, sorted. */
  names: Buffer;
  /** Offset in the pack of the object named at the same position. */
  offsets: number[];
}

export const PACK_INDEX_MAGIC = 0xff744f63;

export function parsePackIndex(idx: Buffer, name: string): PackIndex {
  if (idx.readUInt32BE(0) !== PACK_INDEX_MAGIC || idx.readUInt32BE(4) !== 2) throw new Error(`${name} is not a version 2 pack index`);
  const count = idx.readUInt32BE(8 + 255 * 4);
  const namesAt = 8 + 256 * 4;
  const offsetsAt = namesAt + count * 20 + count * 4;
  const largeAt = offsetsAt + count * 4;
  const names = Buffer.from(idx.subarray(namesAt, namesAt + count * 20));
  const offsets = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const small = idx.readUInt32BE(offsetsAt + i * 4);
    offsets[i] = small & 0x80000000 ? Number(idx.readBigUInt64BE(largeAt + (small & 0x7fffffff) * 8)) : small;
  }
  return { names, offsets };
}

/** Position of the 20-byte id in the sorted names, or -1. */
export function findPackName(names: Buffer, id: Buffer): number {
  let lo = 0;
  let hi = names.length / 20 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cmp = names.compare(id, 0, 20, mid * 20, mid * 20 + 20);
    if (cmp === 0) return mid;
    if (cmp < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Where each object's bytes end: the next object's offset, or the pack's trailer for the last. */
export function entryEnds(offsets: readonly number[], packSize: number): Map<number, number> {
  const sorted = [...offsets].sort((a, b) => a - b);
  const ends = new Map<number, number>();
  sorted.forEach((offset, i) => ends.set(offset, i + 1 < sorted.length ? sorted[i + 1] : packSize - 20));
  return ends;
}
