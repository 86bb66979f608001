import * as nodeFs from 'fs';
import git from 'isomorphic-git';
import type { SourceTree } from '@quire/content/gitsync';

export interface GitSourceTree extends SourceTree {
  /** Blob id of a file, for callers that deduplicate by content. */
  oidOf(path: string): string | undefined;
}

/**
 * A commit's files read straight from git objects, without a checkout: paths are listed
 * once from the trees, contents are read on demand. Symbolic links and submodules are
 * left out; they are not documentation content, and a link's "content" is a path.
 */
export async function gitSourceTree(opts: {
  gitdir: string;
  commit: string;
  /** isomorphic-git's object cache (pack indexes, packs), shared with the caller. */
  cache?: object;
  fs?: typeof nodeFs;
}): Promise<GitSourceTree> {
  const { gitdir, cache } = opts;
  const fs = opts.fs ?? nodeFs;
  const blobs = new Map<string, string>();
  const visit = async (oid: string, prefix: string): Promise<void> => {
    const { tree } = await git.readTree({ fs, gitdir, oid, cache });
    await Promise.all(
      tree.map((entry) => {
        if (entry.type === 'tree') return visit(entry.oid, `${prefix}${entry.path}/`);
        if (entry.type === 'blob' && entry.mode !== '120000') blobs.set(prefix + entry.path, entry.oid);
        return undefined;
      }),
    );
  };
  await visit(opts.commit, '');
  // The layout reader reads some pages for their titles (all of them when there is no
  // SUMMARY.md) before the import reads them again for their content; what is read ends up
  // in the import's result anyway, so keeping it costs no extra memory at the peak.
  const reads = new Map<string, Promise<Uint8Array>>();
  return {
    files: () => [...blobs.keys()],
    oidOf: (path) => blobs.get(path),
    read: async (path) => {
      const oid = blobs.get(path);
      if (oid === undefined) return undefined;
      let read = reads.get(path);
      if (!read) {
        read = git.readBlob({ fs, gitdir, oid, cache }).then(({ blob }) => blob);
        reads.set(path, read);
      }
      return read;
    },
  };
}
