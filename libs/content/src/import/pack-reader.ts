import * as fs from 'fs';
import { join } from 'path';
import { inflateSync } from 'zlib';
import { LruCache } from '../store/lru-cache';
import { entryEnds, findPackName, parsePackIndex } from '../store/pack-index';

export type GitObjectKind = 'commit' | 'tree' | 'blob' | 'tag';

export interface GitObjectRead {
  type: GitObjectKind;
  data: Buffer;
}

const KINDS: Record<number, GitObjectKind> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;

/**
 * Bytes of inflated delta bases kept per reader (git's own `core.deltaBaseCacheLimit` is 96 MB).
 * git chains similar files up to 50 deltas deep; without the cache every object of a chain
 * inflated the whole chain again, which made reading a 1,000-page repository quadratic in the
 * depth (60% of the CPU time of a whole import).
 */
const DELTA_BASE_CACHE_BYTES = 32 << 20;

/**
 * Packs are read from disk in aligned chunks of this size, kept in a small cache: a page's
 * object is a few hundred bytes to a few KB, and a read of the disk per object (a trip through
 * libuv's thread pool each) cost more than inflating it: reading the pages and trees of a
 * 1,000-page pack took 25 ms of CPU object by object, 10 ms by chunks. git writes objects of
 * one kind and path next to each other, so one chunk serves the objects read after it.
 */
const PACK_CHUNK_BYTES = 1 << 20;
/** Chunks kept per reader: what a reader holds stays bounded whatever the pack's size. */
const PACK_CHUNK_CACHE_BYTES = 16 << 20;

export interface PackObjectReaderOptions {
  /** Size of the chunks the packs are read in; PACK_CHUNK_BYTES unless a test says otherwise. */
  chunkBytes?: number;
}

/** One pack: its index in memory (ids and offsets), the pack itself read object by object from disk. */
interface Pack {
  /** Its place in the reader's list, for cache keys. */
  id: number;
  path: string;
  handle: fs.promises.FileHandle;
  /** Its size in bytes. */
  size: number;
  /** Object ids, sorted (the index's order), and each one's offset in the pack. */
  names: Buffer;
  offsets: number[];
  /** Where each object's bytes end: the next object's offset (or the trailer). */
  ends: Map<number, number>;
}

/**
 * Reads objects of a repository's packs by random access: the pack index says where an object
 * is, and only that object's bytes (and its delta bases') are read and inflated. isomorphic-git
 * reads a whole pack into memory to read any object of it, so an import of a small project
 * directory of a large repository held the whole repository; this holds what it reads.
 * Loose objects are read too. Not safe against a repository that changes meanwhile (the
 * caller holds the cache lock).
 */
export class PackObjectReader {
  /** Inflated delta bases, by pack and offset; reads in flight are shared, so concurrent readers of one chain inflate it once. */
  private readonly bases = new LruCache<GitObjectRead>(DELTA_BASE_CACHE_BYTES, (read) => read.data.byteLength + 64);
  /** Chunks of the packs, by pack and chunk number; reads in flight are shared like the bases'. */
  private readonly chunks = new LruCache<Buffer>(PACK_CHUNK_CACHE_BYTES, (chunk) => chunk.byteLength);

  private constructor(
    private readonly gitdir: string,
    private readonly packs: Pack[],
    private readonly chunkBytes: number,
  ) {}

  static async open(gitdir: string, opts: PackObjectReaderOptions = {}): Promise<PackObjectReader> {
    const dir = join(gitdir, 'objects', 'pack');
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const packs: Pack[] = [];
    try {
      for (const name of names.filter((n) => n.endsWith('.idx'))) {
        const path = join(dir, name.replace(/\.idx$/, '.pack'));
        const index = parsePackIndex(await fs.promises.readFile(join(dir, name)), name);
        const handle = await fs.promises.open(path, 'r');
        const size = (await handle.stat()).size;
        const ends = entryEnds(index.offsets, size);
        packs.push({ id: packs.length, path, handle, size, names: index.names, offsets: index.offsets, ends });
      }
    } catch (error) {
      await Promise.all(packs.map((p) => p.handle.close()));
      throw error;
    }
    return new PackObjectReader(gitdir, packs, opts.chunkBytes ?? PACK_CHUNK_BYTES);
  }

  async close(): Promise<void> {
    await Promise.all(this.packs.map((p) => p.handle.close().catch(() => undefined)));
  }

  /**
   * The object, or a NotFoundError-like error (`code: 'NotFoundError'`) when the repository lacks
   * it. Its data may be shared with the delta-base cache: read it, never write into it.
   */
  async read(oid: string): Promise<GitObjectRead> {
    const packed = this.locate(Buffer.from(oid, 'hex'));
    if (packed) return this.readAt(packed.pack, packed.offset);
    const loose = await fs.promises.readFile(join(this.gitdir, 'objects', oid.slice(0, 2), oid.slice(2))).catch(() => undefined);
    if (loose) return parseLoose(inflateSync(loose), oid);
    throw Object.assign(new Error(`Could not find object ${oid}`), { code: 'NotFoundError', data: { what: oid } });
  }

  private locate(id: Buffer): { pack: Pack; offset: number } | undefined {
    for (const pack of this.packs) {
      const i = findPackName(pack.names, id);
      if (i >= 0) return { pack, offset: pack.offsets[i] };
    }
    return undefined;
  }

  private readBase(pack: Pack, offset: number): Promise<GitObjectRead> {
    return this.bases.getOrLoad(`${pack.id}:${offset}`, () => this.readAt(pack, offset));
  }

  private async readAt(pack: Pack, offset: number): Promise<GitObjectRead> {
    const end = pack.ends.get(offset);
    if (end === undefined) throw new Error(`No object at offset ${offset} of ${pack.path}`);
    const bytes = await this.packBytes(pack, offset, end);
    let at = 0;
    let byte = bytes[at++];
    const type = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while (byte & 0x80) {
      byte = bytes[at++];
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    if (type === OFS_DELTA) {
      byte = bytes[at++];
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[at++];
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      const base = await this.readBase(pack, offset - distance);
      return { type: base.type, data: applyDelta(base.data, inflateSync(bytes.subarray(at))) };
    }
    if (type === REF_DELTA) {
      const baseId = bytes.subarray(at, at + 20);
      const packed = this.locate(baseId);
      const base = packed ? await this.readBase(packed.pack, packed.offset) : await this.read(baseId.toString('hex'));
      return { type: base.type, data: applyDelta(base.data, inflateSync(bytes.subarray(at + 20))) };
    }
    const kind = KINDS[type];
    if (!kind) throw new Error(`Unknown object type ${type} at offset ${offset} of ${pack.path}`);
    const data = inflateSync(bytes.subarray(at));
    if (data.length !== size) throw new Error(`Object at offset ${offset} of ${pack.path} inflates to ${data.length} bytes, not ${size}`);
    return { type: kind, data };
  }

  /**
   * The pack's bytes from `start` to `end`: sliced from the cached chunk that holds them, or read
   * on their own when they cross a chunk's end (an object larger than a chunk, an image, is read
   * once and not cached, as before). The slice may share a cached chunk's memory: read only.
   */
  private async packBytes(pack: Pack, start: number, end: number): Promise<Buffer> {
    const n = Math.floor(start / this.chunkBytes);
    if (Math.floor((end - 1) / this.chunkBytes) !== n) {
      const bytes = Buffer.alloc(end - start);
      await pack.handle.read(bytes, 0, bytes.length, start);
      return bytes;
    }
    const from = n * this.chunkBytes;
    return (await this.chunk(pack, n, from)).subarray(start - from, end - from);
  }

  private chunk(pack: Pack, n: number, from: number): Promise<Buffer> {
    return this.chunks.getOrLoad(`${pack.id}:${n}`, async () => {
      const bytes = Buffer.allocUnsafe(Math.min(this.chunkBytes, pack.size - from));
      await pack.handle.read(bytes, 0, bytes.length, from);
      return bytes;
    });
  }
}

function parseLoose(raw: Buffer, oid: string): GitObjectRead {
  const space = raw.indexOf(0x20);
  const nul = raw.indexOf(0, space);
  const type = raw.subarray(0, space).toString() as GitObjectKind;
  if (!['commit', 'tree', 'blob', 'tag'].includes(type) || nul < 0) throw new Error(`Object ${oid} is not a git object`);
  return { type, data: raw.subarray(nul + 1) };
}

/** git's delta format: the base's and the result's sizes, then copies from the base and inserted bytes. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const size = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const baseSize = size();
  if (baseSize !== base.length) throw new Error(`Delta expects a base of ${baseSize} bytes, not ${base.length}`);
  const out = Buffer.alloc(size());
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++];
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset |= delta[at++] << (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) length |= delta[at++] << (8 * bit);
      offset >>>= 0;
      if (length === 0) length = 0x10000;
      written += base.copy(out, written, offset, offset + length);
    } else if (op > 0) {
      written += delta.copy(out, written, at, at + op);
      at += op;
    } else {
      throw new Error('Invalid delta instruction 0');
    }
  }
  if (written !== out.length) throw new Error(`Delta produced ${written} bytes, not ${out.length}`);
  return out;
}

/** A tree's entries, as `git ls-tree` lists them. */
export function parseTree(data: Buffer): Array<{ mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }> {
  const entries: Array<{ mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }> = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const nul = data.indexOf(0, space);
    const rawMode = data.subarray(at, space).toString();
    const mode = rawMode.padStart(6, '0');
    const path = data.subarray(space + 1, nul).toString('utf8');
    const oid = data.subarray(nul + 1, nul + 21).toString('hex');
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ mode, path, oid, type });
    at = nul + 21;
  }
  return entries;
}

/** The parts of a commit an import records. */
export function parseCommit(data: Buffer): { tree: string; message: string; author: { name: string; email: string; timestamp: number } } {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = (split < 0 ? text : text.slice(0, split)).split('\n');
  const message = split < 0 ? '' : text.slice(split + 2);
  const tree = headers.find((h) => h.startsWith('tree '))?.slice(5) ?? '';
  const authorLine = headers.find((h) => h.startsWith('author ')) ?? '';
  const m = /^author (.*) <([^>]*)> (\d+) [+-]\d{4}$/.exec(authorLine);
  return { tree, message, author: { name: m?.[1] ?? '', email: m?.[2] ?? '', timestamp: m ? Number(m[3]) : 0 } };
}
