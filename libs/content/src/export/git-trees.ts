import * as fs from 'fs';
import git from 'isomorphic-git';
import { randomBytes } from 'crypto';
import { basename, join } from 'path';
import { loosePath, readLooseObject, serializeTree, writeLooseFromPacked, writeObject, type GitObjectType, type TreeItem } from '../store/git-objects';
import { packFileOf, packHolding, readPackedObject, refreshPacks } from '../store/packed-objects';
import { createStoreCaches, type SpaceRepo } from '../store/space-repo';
import type { TreeFile } from './compose-export-tree';

/** Parallel file operations while objects are copied. */
const IO_CONCURRENCY = 16;

/** A bare repository other than a space's, written with the store's atomic object writer. */
export function plainRepo(gitdir: string): SpaceRepo {
  return { spaceId: 'export', gitdir, caches: createStoreCaches({ blobCacheBytes: 0, treeCacheEntries: 0 }) };
}

/** Every entry of a tree, recursively, by path: blobs, symbolic links and submodules. */
export async function listTreeFiles(gitdir: string, tree: string, cache: object): Promise<Map<string, TreeFile>> {
  const files = new Map<string, TreeFile>();
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree: entries } = await git.readTree({ fs, gitdir, oid, cache });
    await Promise.all(
      entries.map((entry) => {
        if (entry.type === 'tree') return visit(entry.oid, `${prefix}${entry.path}/`);
        files.set(prefix + entry.path, { oid: entry.oid, mode: entry.mode.replace(/^0+/, '') });
        return undefined;
      }),
    );
  };
  await visit(tree, '');
  return files;
}

interface Dir {
  files: Map<string, TreeFile>;
  dirs: Map<string, Dir>;
}

/** Writes the trees of a flat file map and returns the root tree's oid. */
export async function writeTrees(repo: SpaceRepo, files: ReadonlyMap<string, TreeFile>): Promise<string> {
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, file] of files) {
    const segments = path.split('/');
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      if (dir.files.has(segment)) throw new Error(`${path}: ${segment} is a file in the repository`);
      let next = dir.dirs.get(segment);
      if (!next) dir.dirs.set(segment, (next = { files: new Map(), dirs: new Map() }));
      dir = next;
    }
    const name = segments[segments.length - 1];
    if (dir.dirs.has(name)) throw new Error(`${path} is a folder in the repository`);
    dir.files.set(name, file);
  }
  const write = async (dir: Dir): Promise<string> => {
    const subdirs = [...dir.dirs];
    const oids = await Promise.all(subdirs.map(([, child]) => write(child)));
    const items: TreeItem[] = subdirs.map(([name], i) => ({ name, mode: '40000', oid: oids[i] }));
    for (const [name, file] of dir.files) items.push({ name, mode: file.mode, oid: file.oid });
    return writeObject(repo, 'tree', serializeTree(items));
  };
  return write(root);
}

/**
 * Makes objects of one repository present in another. An object of one of its packs has the
 * pack and its index linked (once for all of its objects); a loose object is hard-linked (git
 * objects never change, so both repositories may share the file), or copied where links are
 * not possible.
 */
export async function copyObjects(from: SpaceRepo, to: SpaceRepo, oids: Iterable<string>): Promise<number> {
  const pending = [...oids];
  let copied = 0;
  let next = 0;
  // One mkdir per object directory (256 at most), not one per object.
  const directories = new Map<string, Promise<unknown>>();
  const directory = (path: string) => {
    let made = directories.get(path);
    if (!made) directories.set(path, (made = fs.promises.mkdir(path, { recursive: true })));
    return made;
  };
  const packs = new Map<string, Promise<void>>();
  const linkPackOnce = (pack: string) => {
    let linked = packs.get(pack);
    if (!linked) packs.set(pack, (linked = linkPack(pack, join(to.gitdir, 'objects', 'pack'))));
    return linked;
  };
  // The packs as they are now, looked up in memory for each object before its loose file: an
  // imported revision is one pack, and trying a loose link first cost each of its objects a
  // failed link (an exception) and its object directory an mkdir.
  await refreshPacks(from.gitdir);
  const worker = async () => {
    while (next < pending.length) {
      const oid = pending[next++];
      const dest = loosePath(to, oid);
      const inPack = packFileOf(from.gitdir, oid);
      if (inPack) {
        if (fs.existsSync(dest)) continue;
        copied++;
        await linkPackOnce(inPack);
        continue;
      }
      // Linked straight away: EEXIST says it is there already, ENOENT that it is not loose in
      // `from` (a stat of both files first cost a 1,000-page export more than the links).
      await directory(join(dest, '..'));
      try {
        await fs.promises.link(loosePath(from, oid), dest);
        copied++;
        continue;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        if (code !== 'ENOENT' && code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
      }
      if (fs.existsSync(dest)) continue;
      copied++;
      // In a pack of the space's (a revision written as one): the pack and its index are linked
      // once, for all the objects it holds, rather than each written as a file (see
      // packedAsLoose in export-to-git-repository, through which the push reads them).
      const pack = await packHolding(from.gitdir, oid);
      if (pack) {
        await linkPackOnce(pack);
        continue;
      }
      // Packed whole (a revision written as a pack): its compressed bytes as they are, so the
      // push still copies them into its pack without inflating and deflating each again.
      const packed = await readPackedObject(from.gitdir, oid);
      if (packed) {
        await writeLooseFromPacked(to, oid, packed.type, packed.size, packed.deflated);
        continue;
      }
      const loose = await readLooseObject(from, oid);
      if (loose) {
        await writeObject(to, loose.type as GitObjectType, loose.content);
      } else {
        const { type, object } = await git.readObject({ fs, gitdir: from.gitdir, oid, format: 'content' });
        await writeObject(to, type as GitObjectType, object as Uint8Array);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IO_CONCURRENCY, pending.length) }, worker));
  return copied;
}

/** Links a pack and its index into another repository's objects/pack (copied where links are not possible), the index last. */
async function linkPack(pack: string, toDir: string): Promise<void> {
  await fs.promises.mkdir(toDir, { recursive: true });
  for (const from of [pack, `${pack.slice(0, -'.pack'.length)}.idx`]) {
    const dest = join(toDir, basename(from));
    try {
      await fs.promises.link(from, dest);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
      const temporary = join(toDir, `tmp_pack_${process.pid}_${randomBytes(6).toString('hex')}`);
      await fs.promises.copyFile(from, temporary);
      await fs.promises.rename(temporary, dest);
    }
  }
}
