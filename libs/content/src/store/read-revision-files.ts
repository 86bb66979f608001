import { readRevision } from './read-revision';
import { readTree } from './read-tree';
import type { SpaceRepo } from './space-repo';

export interface RevisionFile {
  /** '/'-separated path from the repository root. */
  path: string;
  oid: string;
  /** '100644', '100755' or '120000' (symlink). */
  mode: string;
}

/** Every file of a revision, in git's tree order. Submodule entries are left out: they
 * name commits of other repositories, not content of this one. */
export async function readRevisionFiles(repo: SpaceRepo, revision: string): Promise<RevisionFile[]> {
  const { tree } = await readRevision(repo, revision);
  return listTree(repo, tree, '');
}

async function listTree(repo: SpaceRepo, oid: string, prefix: string): Promise<RevisionFile[]> {
  const entries = await readTree(repo, oid, prefix);
  // Subtrees are read concurrently and spliced in order, so the listing is stable.
  const nested = await Promise.all(
    entries.map((entry) => (entry.type === 'tree' ? listTree(repo, entry.oid, `${prefix}${entry.name}/`) : undefined)),
  );
  const files: RevisionFile[] = [];
  entries.forEach((entry, i) => {
    if (entry.type === 'blob') files.push({ path: prefix + entry.name, oid: entry.oid, mode: entry.mode });
    else if (entry.type === 'tree') for (const file of nested[i] ?? []) files.push(file);
  });
  return files;
}
