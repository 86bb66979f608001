/**
 * Writing loose git objects (many at once go into a pack: see write-pack), and reading them
 * back. Trees and commits are read through isomorphic-git, blobs here and in packed-objects;
 * writes are done here for two reasons:
 * - atomicity: isomorphic-git writes an object file in place and never rewrites one that
 *   exists, so a crash or a concurrent reader can meet a truncated object for good. Here
 *   an object is written to a temporary file and renamed into place, as git does.
 * - speed: node's native SHA-1 and zlib make a 1,000-page revision about 4x faster than
 *   `git.writeBlob` (measured outside jest: ~1 s sequential vs ~0.2 s).
 * The object formats are git's own and are checked by `git fsck` in the tests.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import { existsSync } from 'fs';
import { dirname, join } from 'path';
import { promisify } from 'util';
import { deflateSync, inflate } from 'zlib';

const inflateAsync = promisify(inflate);
/**
 * git's own default for loose objects (`core.looseCompression` = 1): about three times faster
 * than zlib's default level for under 1% more bytes, and deflateSync runs on the event loop.
 * `git gc` recompresses when it packs them.
 */
const LOOSE_COMPRESSION = { level: 1 };

/** Bytes of a large object deflated first, to tell whether the rest is worth deflating. */
const SAMPLE_BYTES = 16 << 10;

/**
 * An object's content as a zlib stream: deflated at the loose level, or stored (zlib's level 0)
 * when its first 16 KB do not shrink by a tenth (images, archives: compressed already).
 * Deflating the 9 MB of PNGs of the 1,000-page import benchmark took 0.6-0.8 s of its write on
 * the shared host and made them larger; storing them takes ~20 ms. Either is a zlib stream any
 * git reads.
 */
export function deflateContent(content: Uint8Array): Buffer {
  if (content.byteLength > SAMPLE_BYTES && deflateSync(content.subarray(0, SAMPLE_BYTES), LOOSE_COMPRESSION).byteLength > SAMPLE_BYTES * 0.9) {
    return deflateSync(content, { level: 0 });
  }
  return deflateSync(content, LOOSE_COMPRESSION);
}
import { hasPackedObject } from './packed-objects';
import type { SpaceRepo } from './space-repo';

export type GitObjectType = 'blob' | 'tree' | 'commit';

export function loosePath(repo: SpaceRepo, oid: string): string {
  return join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
}

/** The object's id: the SHA-1 of its header and content. */
export function objectId(type: GitObjectType, content: Uint8Array): string {
  return createHash('sha1').update(objectHeader(type, content)).update(content).digest('hex');
}

function objectHeader(type: string, content: Uint8Array | number): Buffer {
  return Buffer.from(`${type} ${typeof content === 'number' ? content : content.byteLength}\0`);
}

/**
 * Writes an object unless it is already there (objects are content-addressed: an existing
 * file with that name holds these bytes) and returns its oid. Existence is checked with a
 * plain stat before compressing anything: an asynchronous check that fails costs an
 * exception per new object, which was a third of the time of a 1,000-file revision.
 */
export async function writeObject(repo: SpaceRepo, type: GitObjectType, content: Uint8Array): Promise<string> {
  const header = objectHeader(type, content);
  const oid = createHash('sha1').update(header).update(content).digest('hex');
  if (existsSync(loosePath(repo, oid))) return oid;
  await writeLooseFile(repo, oid, looseObjectBytes(header, content));
  return oid;
}

/**
 * A loose object's file as packed bytes give it, without inflating them: `deflated` is the zlib
 * stream of the content alone (a whole pack entry's data).
 */
export async function writeLooseFromPacked(repo: SpaceRepo, oid: string, type: string, size: number, deflated: Buffer): Promise<void> {
  await writeLooseFile(repo, oid, looseBytesFromPacked({ type, size, deflated }));
}

/** A loose object's file (laid out as writeObject lays them) from a whole packed object's compressed bytes, without inflating them. */
export function looseBytesFromPacked(object: { type: string; size: number; deflated: Buffer }): Buffer {
  return looseObjectFromDeflated(objectHeader(object.type, object.size), object.deflated, object.size);
}

/** A loose object's file written to a temporary file and renamed into place, as git does. */
async function writeLooseFile(repo: SpaceRepo, oid: string, bytes: Buffer): Promise<void> {
  const path = loosePath(repo, oid);
  const dir = dirname(path);
  if (!repo.caches.objectDirs.has(dir)) {
    await fs.promises.mkdir(dir, { recursive: true });
    repo.caches.objectDirs.add(dir);
  }
  // git's own temporary-object prefix: `git gc` removes stale ones.
  const temporary = join(dir, `tmp_obj_${process.pid}_${randomBytes(6).toString('hex')}`);
  try {
    try {
      await fs.promises.writeFile(temporary, bytes);
    } catch (error) {
      // `git gc` packs loose objects and removes their emptied fan-out directories.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await fs.promises.mkdir(dir, { recursive: true });
      await fs.promises.writeFile(temporary, bytes);
    }
    await fs.promises.rename(temporary, path);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/**
 * A loose object's file, laid out so that a push can put the content's compressed bytes into
 * its pack as they are (a pack entry is the zlib stream of the content without the header;
 * see packReadyLooseObject in patches/isomorphic-git): the header in a stored block of its
 * own, then the content deflated on its own, then the adler-32 of both, which zlib's
 * adler32_combine gives from the parts. Any zlib reader inflates it as one stream, as git
 * does; it costs the same deflate as the whole and 5 bytes.
 */
function looseObjectBytes(header: Buffer, content: Uint8Array): Buffer {
  return looseObjectFromDeflated(header, deflateContent(content), content.byteLength);
}

/** The same from the content's zlib stream: its header (2 bytes), deflate blocks, adler-32 (4 bytes, big-endian). */
function looseObjectFromDeflated(header: Buffer, deflated: Buffer, contentLength: number): Buffer {
  const body = deflated.subarray(2, deflated.byteLength - 4);
  const file = Buffer.allocUnsafe(2 + 5 + header.byteLength + body.byteLength + 4);
  deflated.copy(file, 0, 0, 2);
  // BFINAL=0, BTYPE=00 (stored), then LEN and its one's complement, little-endian.
  file[2] = 0;
  file.writeUInt16LE(header.byteLength, 3);
  file.writeUInt16LE(~header.byteLength & 0xffff, 5);
  header.copy(file, 7);
  body.copy(file, 7 + header.byteLength);
  file.writeUInt32BE(adler32Combine(adler32(header), deflated.readUInt32BE(deflated.byteLength - 4), contentLength), file.byteLength - 4);
  return file;
}

const ADLER_BASE = 65521;

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % ADLER_BASE;
    b = (b + a) % ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib's adler32_combine: the adler-32 of A || B from those of A and B and B's length. */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  const a1 = first & 0xffff;
  const a = (a1 + (second & 0xffff) + ADLER_BASE - 1) % ADLER_BASE;
  const b = ((rem * a1) % ADLER_BASE + (first >>> 16) + (second >>> 16) + ADLER_BASE - rem) % ADLER_BASE;
  return ((b << 16) | a) >>> 0;
}

/** True when the object is in the repository, loose or in a pack (Quire's, or one `git gc` made). */
export async function objectExists(repo: SpaceRepo, oid: string): Promise<boolean> {
  return existsSync(loosePath(repo, oid)) || (await hasPackedObject(repo.gitdir, oid));
}

export interface TreeItem {
  name: string;
  mode: string;
  oid: string;
}

/** Serialises a tree in git's order: by the bytes of the name, a directory's name
 * compared as if it ended with '/'. */
export function serializeTree(items: TreeItem[]): Uint8Array {
  const keyed = items.map((item) => ({
    item,
    name: Buffer.from(item.name, 'utf8'),
    key: Buffer.from(item.mode === '40000' ? `${item.name}/` : item.name, 'utf8'),
  }));
  keyed.sort((x, y) => Buffer.compare(x.key, y.key));
  const parts: Buffer[] = [];
  for (const { item, name } of keyed) {
    parts.push(Buffer.from(`${item.mode} `), name, Buffer.from([0]), Buffer.from(item.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

export interface CommitFields {
  tree: string;
  parents: string[];
  author: { name: string; email: string };
  /** Who wrote the commit, when not its author (an export: the user wrote it, Quire commits it). */
  committer?: { name: string; email: string };
  timestamp: Date;
  message: string;
}

export function serializeCommit(commit: CommitFields): Uint8Array {
  const seconds = Math.floor(commit.timestamp.getTime() / 1000);
  // git refuses '<', '>' and newlines inside an identity.
  const clean = (value: string) => value.replace(/[<>\r\n]/g, '').trim();
  const identity = (who: { name: string; email: string }) => `${clean(who.name)} <${clean(who.email)}> ${seconds} +0000`;
  const lines = [
    `tree ${commit.tree}`,
    ...commit.parents.map((parent) => `parent ${parent}`),
    `author ${identity(commit.author)}`,
    `committer ${identity(commit.committer ?? commit.author)}`,
  ];
  const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`;
  return Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8');
}

/**
 * A loose object's type and content, or undefined when it is not stored loose (packed, or
 * absent). Node's zlib inflates on libuv's thread pool, off the event loop: reading the
 * thousand pages of a new revision (read models parse each) is several times faster than
 * through isomorphic-git's JavaScript inflate.
 */
export async function readLooseObject(repo: SpaceRepo, oid: string): Promise<{ type: string; content: Uint8Array } | undefined> {
  let deflated: Buffer;
  try {
    deflated = await fs.promises.readFile(loosePath(repo, oid));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const wrapped = await inflateAsync(deflated);
  const space = wrapped.indexOf(0x20);
  const nul = wrapped.indexOf(0, space);
  if (space < 0 || nul < 0) throw new Error(`corrupt loose object ${oid} in ${repo.gitdir}`);
  const content = wrapped.subarray(nul + 1);
  if (Number(wrapped.toString('latin1', space + 1, nul)) !== content.byteLength) throw new Error(`corrupt loose object ${oid} in ${repo.gitdir}: wrong size`);
  return { type: wrapped.toString('latin1', 0, space), content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength) };
}
