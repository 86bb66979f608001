/**
 * Objects of a repository's packs, read one at a time: the pack index says where an object is,
 * and only its bytes are read. isomorphic-git reads a whole pack into memory for any object of
 * it; revisions written as a pack (see write-pack) are read here instead, by every process. Only
 * whole (undeltified) entries are read, as Quire writes them: an entry stored as a delta (a pack
 * `git gc` made) is left to isomorphic-git, as before.
 */
import * as fs from 'fs';
import { join } from 'path';
import { inflate, inflateSync } from 'zlib';
import { promisify } from 'util';
import { LruCache } from './lru-cache';
import { findPackName, parsePackIndex } from './pack-index';

const inflateAsync = promisify(inflate);

export type PackedObjectType = 'commit' | 'tree' | 'blob' | 'tag';

/** A whole object as its pack holds it: the zlib stream of its content, not inflated. */
export interface PackedObject {
  type: PackedObjectType;
  size: number;
  deflated: Buffer;
}

const KINDS: Record<number, PackedObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

/** Below this, an object is inflated on the event loop: a trip to the thread pool costs more. */
const INFLATE_ON_LOOP_BYTES = 64 << 10;

/** One pack: its index in memory (32 bytes an object), its file opened while reads are under way. */
interface StorePack {
  names: Buffer;
  offsets: Float64Array;
  /** Bytes of each entry, by the index's order. */
  lengths: Uint32Array;
  file: SharedFile;
}

/**
 * Packs up to this size are read whole once several of their objects are being read at once: a
 * read model reading every page of a new revision made 1,001 reads of one 1.5 MB pack, each a
 * trip to the thread pool and back through a busy event loop (the search index's sections of a
 * 1,000-page import took 271-310 ms with them, 167-197 ms with the pack read whole; bench/git-import).
 */
const WHOLE_PACK_MAX_BYTES = 16 << 20;

/** Reads of one pack under way at once from which the next ones read it whole. */
const BURST_READS = 4;

/** Whole packs kept per process (least recently used first out): packs never change. */
const wholePacks = new LruCache<Buffer>(64 << 20, (bytes) => bytes.byteLength);

/**
 * One pack file, read an entry at a time or, in a burst of reads, whole. The file handle is
 * shared by the reads under way and closed when the last one ends: an idle repository holds no
 * descriptor. A pack read whole stays in `wholePacks` (its entries are slices of it).
 */
class SharedFile {
  private handle?: Promise<fs.promises.FileHandle>;
  private users = 0;

  constructor(
    readonly path: string,
    private readonly size: number,
  ) {}

  async read(position: number, length: number): Promise<Buffer> {
    const whole = wholePacks.get(this.path) ?? (this.users >= BURST_READS - 1 && this.size <= WHOLE_PACK_MAX_BYTES ? await this.readWhole() : undefined);
    if (whole) {
      if (position + length > whole.byteLength) throw new Error(`${this.path} ends before the object at offset ${position}`);
      return whole.subarray(position, position + length);
    }
    this.users++;
    const opening = (this.handle ??= fs.promises.open(this.path, 'r'));
    try {
      const handle = await opening;
      const bytes = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(bytes, 0, length, position);
      if (bytesRead !== length) throw new Error(`${this.path} ends before the object at offset ${position}`);
      return bytes;
    } finally {
      if (--this.users === 0 && this.handle === opening) {
        this.handle = undefined;
        opening.then((handle) => handle.close()).catch(() => undefined);
      }
    }
  }

  /** The whole file, read once for every caller asking while it loads. */
  private readWhole(): Promise<Buffer> {
    return wholePacks.getOrLoad(this.path, () => fs.promises.readFile(this.path));
  }
}

/** The packs of one repository, as last listed. Packs never change; `git gc` may remove them. */
class PackDirectory {
  private readonly packs = new Map<string, StorePack>();
  private listing?: Promise<void>;

  constructor(private readonly dir: string) {}

  /** Lists the packs again: those that appeared are indexed, those gone are forgotten. */
  refresh(): Promise<void> {
    return (this.listing ??= this.list().finally(() => (this.listing = undefined)));
  }

  locate(id: Buffer): { pack: StorePack; position: number } | undefined {
    for (const pack of this.packs.values()) {
      const position = findPackName(pack.names, id);
      if (position >= 0) return { pack, position };
    }
    return undefined;
  }

  forget(pack: StorePack): void {
    for (const [name, known] of this.packs) if (known === pack) this.packs.delete(name);
  }

  private async list(): Promise<void> {
    const names = new Set((await fs.promises.readdir(this.dir).catch(() => [] as string[])).filter((name) => name.endsWith('.idx')));
    for (const name of this.packs.keys()) if (!names.has(name)) this.packs.delete(name);
    for (const name of names) {
      if (this.packs.has(name)) continue;
      const path = join(this.dir, `${name.slice(0, -'.idx'.length)}.pack`);
      try {
        const index = parsePackIndex(await fs.promises.readFile(join(this.dir, name)), name);
        this.packs.set(name, withLengths(index.names, index.offsets, (await fs.promises.stat(path)).size, path));
      } catch (error) {
        // Removed meanwhile (`git gc` replaced it): what it held is in its successor.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
}

function withLengths(names: Buffer, offsets: number[], packSize: number, path: string): StorePack {
  const byOffset = offsets.map((offset, position) => ({ offset, position })).sort((a, b) => a.offset - b.offset);
  const lengths = new Uint32Array(offsets.length);
  byOffset.forEach(({ offset, position }, i) => (lengths[position] = (i + 1 < byOffset.length ? byOffset[i + 1].offset : packSize - 20) - offset));
  return { names, offsets: Float64Array.from(offsets), lengths, file: new SharedFile(path, packSize) };
}

/** Git objects never change, so what is known of a repository's packs holds for every space store of the process. */
const directories = new Map<string, PackDirectory>();

function packDirectory(gitdir: string): PackDirectory {
  let dir = directories.get(gitdir);
  if (!dir) directories.set(gitdir, (dir = new PackDirectory(join(gitdir, 'objects', 'pack'))));
  return dir;
}

/** Lists the repository's packs again (after a pack was written, or before many `isPacked` checks). */
export function refreshPacks(gitdir: string): Promise<void> {
  return packDirectory(gitdir).refresh();
}

/** Whether a pack of the repository, as last listed, holds the object. */
export function isPacked(gitdir: string, oid: string): boolean {
  return packDirectory(gitdir).locate(Buffer.from(oid, 'hex')) !== undefined;
}

/** The pack file holding the object (whole or as a delta) among the repository's packs as last listed, or undefined. */
export function packFileOf(gitdir: string, oid: string): string | undefined {
  return packDirectory(gitdir).locate(Buffer.from(oid, 'hex'))?.pack.file.path;
}

/** The pack file holding the object (whole or as a delta), or undefined; the packs are listed again when none of those known does. */
export async function packHolding(gitdir: string, oid: string): Promise<string | undefined> {
  const dir = packDirectory(gitdir);
  const id = Buffer.from(oid, 'hex');
  let at = dir.locate(id);
  if (!at) {
    await dir.refresh();
    at = dir.locate(id);
  }
  return at?.pack.file.path;
}

/** Whether a pack of the repository holds the object (whole or as a delta); the packs are listed again when none of those known does. */
export async function hasPackedObject(gitdir: string, oid: string): Promise<boolean> {
  const dir = packDirectory(gitdir);
  const id = Buffer.from(oid, 'hex');
  if (dir.locate(id)) return true;
  await dir.refresh();
  return dir.locate(id) !== undefined;
}

/**
 * The object as one of the repository's packs holds it whole, or undefined (not packed, or
 * stored as a delta). The packs are listed again when none of those known holds it, unless
 * `listAgain` is false (a lookup before trying the object's loose file).
 */
export async function readPackedObject(gitdir: string, oid: string, opts: { listAgain?: boolean } = {}): Promise<PackedObject | undefined> {
  const dir = packDirectory(gitdir);
  const id = Buffer.from(oid, 'hex');
  let at = dir.locate(id);
  if (!at) {
    if (opts.listAgain === false) return undefined;
    await dir.refresh();
    at = dir.locate(id);
    if (!at) return undefined;
  }
  const { pack, position } = at;
  let bytes: Buffer;
  try {
    bytes = await pack.file.read(pack.offsets[position], pack.lengths[position]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    dir.forget(pack);
    return undefined;
  }
  return wholeEntry(bytes);
}

/** A pack entry's type, size and zlib stream, or undefined for a delta. */
function wholeEntry(bytes: Buffer): PackedObject | undefined {
  let i = 0;
  let byte = bytes[i++];
  const type = KINDS[(byte >> 4) & 7];
  let size = byte & 15;
  let shift = 4;
  while (byte & 0x80) {
    byte = bytes[i++];
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (!type) return undefined; // a delta
  return { type, size, deflated: bytes.subarray(i) };
}

/** Whole objects of a repository's packs read synchronously, one descriptor a pack held until `close`. */
export interface PackedObjectReader {
  /** The object as a pack holds it whole, or undefined (not in the packs listed at opening, or a delta). */
  read(oid: string): PackedObject | undefined;
  close(): void;
}

/**
 * A reader of the repository's packs as they are now (listed again at opening), for a burst of
 * reads in a row (a push reading every object it sends): each read is an index lookup and one
 * `readSync` of the entry, with no promise, thread-pool trip or open/close per object.
 */
export async function openPackedObjects(gitdir: string): Promise<PackedObjectReader> {
  const dir = packDirectory(gitdir);
  await dir.refresh();
  const fds = new Map<StorePack, number | undefined>();
  const fdOf = (pack: StorePack) => {
    if (!fds.has(pack)) {
      try {
        fds.set(pack, fs.openSync(pack.file.path, 'r'));
      } catch (error) {
        // Removed meanwhile (`git gc` replaced it): its objects are read from their successor.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        fds.set(pack, undefined);
      }
    }
    return fds.get(pack);
  };
  return {
    read(oid) {
      const at = dir.locate(Buffer.from(oid, 'hex'));
      const fd = at && fdOf(at.pack);
      if (!at || fd === undefined) return undefined;
      const { pack, position } = at;
      const bytes = Buffer.allocUnsafe(pack.lengths[position]);
      const read = fs.readSync(fd, bytes, 0, bytes.byteLength, pack.offsets[position]);
      if (read !== bytes.byteLength) throw new Error(`${pack.file.path} ends before the object at offset ${pack.offsets[position]}`);
      return wholeEntry(bytes);
    },
    close() {
      for (const fd of fds.values()) if (fd !== undefined) fs.closeSync(fd);
      fds.clear();
    },
  };
}

/** The content of a packed object, checked against its recorded size. */
export async function inflatePacked(object: PackedObject, oid: string): Promise<Buffer> {
  const content = object.deflated.byteLength < INFLATE_ON_LOOP_BYTES ? inflateSync(object.deflated) : await inflateAsync(object.deflated);
  if (content.byteLength !== object.size) throw new Error(`packed object ${oid} inflates to ${content.byteLength} bytes, not ${object.size}`);
  return content;
}
