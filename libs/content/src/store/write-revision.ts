import { existsSync } from 'fs';
import { loosePath, objectExists, objectId, serializeCommit, serializeTree, writeObject, type TreeItem } from './git-objects';
import { isPacked, refreshPacks } from './packed-objects';
import { writePack, type PackObject } from './write-pack';
import { initSpaceRepo } from './init-space-repo';
import { readRevision } from './read-revision';
import { recordTip } from './revision-refs';
import { cacheKey, OID, type FileMode, type SpaceRepo } from './space-repo';
import { InvalidPathError, ObjectNotFoundError } from './store.errors';

/** New bytes, or a blob the repository already holds (an unchanged file), by oid. The
 * oid must name a blob, as readRevisionFiles and mergeTrees give them: its type is not
 * checked, only its presence. */
export type RevisionFileInput = Uint8Array | { oid: string; mode?: FileMode };

export interface WriteRevisionOptions {
  /** Commits this revision follows: none for the first, two for a merge. */
  parents: string[];
  /** The whole revision: '/'-separated path -> content. Paths absent here are absent from
   * the revision, whatever the parents held. */
  files: Record<string, RevisionFileInput>;
  message: string;
  author: { name: string; email: string };
  timestamp: Date;
}

const FILE_MODES: ReadonlySet<string> = new Set<FileMode>(['100644', '100755', '120000']);

/** Parallel file operations per write; well below the usual 1,024 open-file limit. */
const IO_CONCURRENCY = 16;

/**
 * New blobs from this many on are written as one pack, fewer as loose objects: a pack saves a
 * file creation per object (what an import's write cost on a busy disk), while each pack is
 * one more index every lookup of the repository may search.
 */
const PACK_MIN_OBJECTS = 64;

interface FileSlot {
  input: RevisionFileInput;
  path: string;
  /** Set once the blob is written or found. */
  oid?: string;
}

interface Dir {
  files: Map<string, FileSlot>;
  dirs: Map<string, Dir>;
}

/**
 * Writes a revision as one commit and returns its oid. Blobs given as bytes are written
 * (skipped when the repository has them already; many new ones as one pack); blobs given by oid must exist and are
 * not touched. Trees are built from the flat path map. The commit is kept reachable from a
 * ref (see recordTip), so `git gc` never prunes it.
 */
export async function writeRevision(repo: SpaceRepo, opts: WriteRevisionOptions): Promise<string> {
  const root = buildDirs(opts.files);
  await initSpaceRepo(repo);
  // A commit naming a missing parent or blob would be a corrupt revision: check first.
  await Promise.all(opts.parents.map((parent) => readRevision(repo, parent)));
  // The blobs the repository lacks: checked against its packs as listed now (one listing, not
  // one per file); a blob packed meanwhile by another writer is only written twice.
  await refreshPacks(repo.gitdir);
  const fresh = new Map<string, PackObject>();
  await forEachLimited(fileSlots(root), IO_CONCURRENCY, async (slot) => {
    if (slot.input instanceof Uint8Array) {
      const oid = objectId('blob', slot.input);
      slot.oid = oid;
      // What is written is read next (the revision's tree is derived from it, the read models
      // parse its pages): keep a copy (not `slice`, which shares a Buffer's memory), so that
      // does not inflate it back from disk.
      repo.caches.blobs.set(cacheKey(repo, oid), new Uint8Array(slot.input));
      if (!fresh.has(oid) && !existsSync(loosePath(repo, oid)) && !isPacked(repo.gitdir, oid)) fresh.set(oid, { oid, type: 'blob', content: slot.input });
      return;
    }
    const { oid } = slot.input;
    if (!OID.test(oid) || !(await objectExists(repo, oid))) throw new ObjectNotFoundError(repo.spaceId, oid, slot.path);
    slot.oid = oid;
  });
  if (fresh.size >= PACK_MIN_OBJECTS) await writePack(repo, [...fresh.values()]);
  else await forEachLimited([...fresh.values()], IO_CONCURRENCY, async (blob) => void (await writeObject(repo, 'blob', blob.content)));
  const tree = await writeDir(repo, root);
  const commit = serializeCommit({ tree, parents: opts.parents, author: opts.author, timestamp: opts.timestamp, message: opts.message });
  const oid = await writeObject(repo, 'commit', commit);
  await recordTip(repo, oid, opts.parents);
  return oid;
}

function buildDirs(files: Record<string, RevisionFileInput>): Dir {
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, input] of Object.entries(files)) {
    const segments = path.split('/');
    for (const segment of segments) checkSegment(path, segment);
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      if (dir.files.has(segment)) throw new InvalidPathError(path, `${segment} is a file in this revision`);
      let next = dir.dirs.get(segment);
      if (!next) {
        next = { files: new Map(), dirs: new Map() };
        dir.dirs.set(segment, next);
      }
      dir = next;
    }
    if (!(input instanceof Uint8Array) && input.mode !== undefined && !FILE_MODES.has(input.mode)) {
      throw new InvalidPathError(path, `unsupported file mode ${input.mode}`);
    }
    const name = segments[segments.length - 1];
    if (dir.dirs.has(name)) throw new InvalidPathError(path, 'it is a folder in this revision');
    dir.files.set(name, { input, path });
  }
  return root;
}

function checkSegment(path: string, segment: string): void {
  if (segment === '') throw new InvalidPathError(path, 'empty path segment (leading, trailing or double slash)');
  if (segment === '.' || segment === '..') throw new InvalidPathError(path, `"${segment}" segment`);
  if (segment.toLowerCase() === '.git') throw new InvalidPathError(path, '.git is reserved');
  if (segment.includes('\0')) throw new InvalidPathError(path, 'NUL character');
}

function fileSlots(dir: Dir, into: FileSlot[] = []): FileSlot[] {
  for (const slot of dir.files.values()) into.push(slot);
  for (const child of dir.dirs.values()) fileSlots(child, into);
  return into;
}

async function writeDir(repo: SpaceRepo, dir: Dir): Promise<string> {
  const subdirs = [...dir.dirs];
  const subdirOids = await Promise.all(subdirs.map(([, child]) => writeDir(repo, child)));
  const items: TreeItem[] = subdirs.map(([name], i) => ({ name, mode: '40000', oid: subdirOids[i] }));
  for (const [name, slot] of dir.files) {
    const mode = slot.input instanceof Uint8Array ? '100644' : (slot.input.mode ?? '100644');
    items.push({ name, mode, oid: slot.oid as string });
  }
  return writeObject(repo, 'tree', serializeTree(items));
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
