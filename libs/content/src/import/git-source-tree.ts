import { posix } from 'path';
import type { SourceTree } from '@quire/content/gitsync';
import { parseTree, type PackObjectReader } from './pack-reader';

export interface GitSourceTree extends SourceTree {
  oidOf(path: string): string | undefined;
}

/**
 * A commit's files read straight from git objects, without a checkout: paths are listed
 * once from the trees, contents are read on demand. A symbolic link to a file of the same
 * commit reads as that file, as it would in a checkout (`README.md -> docs/intro.md`); one
 * that leaves the repository, names a folder or nothing, or loops is left out, and so are
 * submodules (their content is in another repository).
 */
export async function gitSourceTree(opts: {
  /** The repository's objects, read one at a time (a large repository's packs stay on disk). */
  objects: PackObjectReader;
  commit: string;
}): Promise<GitSourceTree> {
  const { objects } = opts;
  const blob = async (oid: string): Promise<Uint8Array> => {
    const read = await objects.read(oid);
    if (read.type !== 'blob') throw Object.assign(new Error(`${oid} is a ${read.type}, not a blob`), { code: 'ObjectTypeError' });
    return read.data;
  };
  const blobs = new Map<string, string>();
  const links = new Map<string, string>();
  const submodules: string[] = [];
  const visit = async (oid: string, prefix: string): Promise<void> => {
    let read = await objects.read(oid);
    if (read.type === 'commit') read = await objects.read(read.data.toString('utf8', 5, 45));
    if (read.type !== 'tree') throw Object.assign(new Error(`${oid} is a ${read.type}, not a tree`), { code: 'ObjectTypeError' });
    const tree = parseTree(read.data);
    await Promise.all(
      tree.map((entry) => {
        if (entry.type === 'tree') return visit(entry.oid, `${prefix}${entry.path}/`);
        if (entry.type === 'blob') (entry.mode === '120000' ? links : blobs).set(prefix + entry.path, entry.oid);
        if (entry.type === 'commit') submodules.push(prefix + entry.path);
        return undefined;
      }),
    );
  };
  await visit(opts.commit, '');
  if (links.size > 0) {
    const targets = new Map<string, string>();
    await Promise.all(
      [...links].slice(0, MAX_LINKS).map(async ([path, oid]) => {
        const target = await blob(oid);
        if (target.byteLength <= MAX_LINK_TARGET) targets.set(path, new TextDecoder().decode(target));
      }),
    );
    for (const path of targets.keys()) {
      const oid = followLink(path, targets, blobs);
      if (oid) blobs.set(path, oid);
    }
  }
  // The layout reader reads some pages for their titles (all of them when there is no
  // SUMMARY.md) before the import reads them again for their content; what is read ends up
  // in the import's result anyway, so keeping it costs no extra memory at the peak.
  const reads = new Map<string, Promise<Uint8Array>>();
  return {
    files: () => [...blobs.keys()],
    oidOf: (path) => blobs.get(path),
    absent: (path) => {
      if (links.has(path) && !blobs.has(path)) return 'is a symbolic link that does not lead to a file of the repository';
      const submodule = submodules.find((sub) => path === sub || path.startsWith(`${sub}/`));
      return submodule === undefined ? undefined : `is in the git submodule ${submodule}, whose files belong to another repository`;
    },
    read: async (path) => {
      const oid = blobs.get(path);
      if (oid === undefined) return undefined;
      let read = reads.get(path);
      if (!read) {
        read = blob(oid);
        reads.set(path, read);
      }
      return read;
    },
  };
}

/** Symbolic links followed per commit, and the longest target read: a link's blob is its target path. */
const MAX_LINKS = 10_000;
const MAX_LINK_TARGET = 4096;
/** Links to links, as the kernel's own limit on nested links (ELOOP). */
const MAX_HOPS = 8;

/** The blob a symbolic link ends at, through links to links, when it stays inside the commit. */
export function followLink(path: string, targets: ReadonlyMap<string, string>, blobs: ReadonlyMap<string, string>): string | undefined {
  let at = path;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const target = targets.get(at);
    if (target === undefined || target.startsWith('/') || target.includes('\0')) return undefined;
    const resolved = posix.normalize(posix.join(posix.dirname(at), target));
    if (resolved === '..' || resolved.startsWith('../') || resolved === '.') return undefined;
    const oid = blobs.get(resolved);
    if (oid !== undefined) return oid;
    at = resolved;
  }
  return undefined;
}
