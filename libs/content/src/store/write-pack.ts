/**
 * Writing many new objects at once as one pack and its index, as `git index-pack` would leave
 * them: two files instead of one per object. Creating a file is what a revision's write costs
 * on a busy disk (a thousand loose objects took 1-4 s on the shared host, the same bytes as one
 * file a few ms), and reading them back is as cheap (see packed-objects). Entries are whole
 * objects (no deltas), each compressed as a loose object's content is (deflateContent), so a push copies their
 * bytes as they are (see git-trees' copyObjects).
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import { join } from 'path';
import { crc32 } from 'zlib';
import { deflateContent, type GitObjectType } from './git-objects';
import { PACK_INDEX_MAGIC } from './pack-index';
import { refreshPacks } from './packed-objects';
import type { SpaceRepo } from './space-repo';

export interface PackObject {
  oid: string;
  type: GitObjectType;
  content: Uint8Array;
}

const TYPE_CODES: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3 };
const LARGE_OFFSET = 0x80000000;

/**
 * Writes the objects (distinct oids, none of them in the repository yet) as one pack and its
 * index under objects/pack. The pack is renamed into place before its index, as git does:
 * readers find packs by their index, so none meets a pack still being written.
 */
export async function writePack(repo: SpaceRepo, objects: readonly PackObject[]): Promise<void> {
  const sorted = [...objects].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(sorted.length, 8);
  parts.push(header);
  let offset = header.byteLength;
  const offsets: number[] = [];
  const crcs: number[] = [];
  for (const object of sorted) {
    const entryHeader = packEntryHeader(TYPE_CODES[object.type], object.content.byteLength);
    const deflated = deflateContent(object.content);
    offsets.push(offset);
    crcs.push(crc32(deflated, crc32(entryHeader)));
    parts.push(entryHeader, deflated);
    offset += entryHeader.byteLength + deflated.byteLength;
  }
  const packHash = createHash('sha1');
  for (const part of parts) packHash.update(part);
  const packChecksum = packHash.digest();
  parts.push(packChecksum);
  const index = packIndex(sorted.map((o) => o.oid), crcs, offsets, packChecksum);

  const dir = join(repo.gitdir, 'objects', 'pack');
  await fs.promises.mkdir(dir, { recursive: true });
  const name = `pack-${packChecksum.toString('hex')}`;
  // git's own temporary names for packs being written: `git gc` removes stale ones.
  const suffix = `${process.pid}_${randomBytes(6).toString('hex')}`;
  const temporaryPack = join(dir, `tmp_pack_${suffix}`);
  const temporaryIndex = join(dir, `tmp_idx_${suffix}`);
  try {
    await fs.promises.writeFile(temporaryPack, Buffer.concat(parts));
    await fs.promises.writeFile(temporaryIndex, index);
    await fs.promises.rename(temporaryPack, join(dir, `${name}.pack`));
    await fs.promises.rename(temporaryIndex, join(dir, `${name}.idx`));
  } catch (error) {
    await Promise.all([fs.promises.rm(temporaryPack, { force: true }), fs.promises.rm(temporaryIndex, { force: true })]);
    throw error;
  }
  await refreshPacks(repo.gitdir);
}

/** An entry's type and inflated size: 3 bits of type, then the size 4 bits first, 7 bits a byte after. */
function packEntryHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/** A version 2 index of sorted oids: fan-out, names, CRC-32s, offsets (large ones apart), checksums. */
function packIndex(oids: string[], crcs: number[], offsets: number[], packChecksum: Buffer): Buffer {
  const count = oids.length;
  const large = offsets.filter((o) => o >= LARGE_OFFSET);
  const index = Buffer.alloc(8 + 256 * 4 + count * (20 + 4 + 4) + large.length * 8 + 20 + 20);
  index.writeUInt32BE(PACK_INDEX_MAGIC, 0);
  index.writeUInt32BE(2, 4);
  const fanout = new Array<number>(256).fill(0);
  for (const oid of oids) fanout[parseInt(oid.slice(0, 2), 16)]++;
  let total = 0;
  for (let i = 0; i < 256; i++) index.writeUInt32BE((total += fanout[i]), 8 + i * 4);
  let at = 8 + 256 * 4;
  for (const oid of oids) at += index.write(oid, at, 'hex');
  for (const crc of crcs) at = index.writeUInt32BE(crc >>> 0, at);
  let nextLarge = 0;
  for (const offset of offsets) at = index.writeUInt32BE(offset < LARGE_OFFSET ? offset : (LARGE_OFFSET | nextLarge++) >>> 0, at);
  for (const offset of large) at = index.writeBigUInt64BE(BigInt(offset), at);
  at += packChecksum.copy(index, at);
  createHash('sha1').update(index.subarray(0, at)).digest().copy(index, at);
  return index;
}
