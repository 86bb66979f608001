import { gitFs as fs } from './git-fs';
import git from 'isomorphic-git';
import { isGitError } from './read-revision';
import { cacheKey, type SpaceRepo, type TreeEntry } from './space-repo';
import { ObjectNotFoundError } from './store.errors';

/** One tree's entries, cached: a tree oid names its content forever. */
export async function readTree(repo: SpaceRepo, oid: string, path = ''): Promise<readonly TreeEntry[]> {
  const key = cacheKey(repo, oid);
  const cached = repo.caches.trees.get(key);
  if (cached) return cached;
  let entries: TreeEntry[];
  try {
    const { tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid });
    entries = tree.map((entry) => ({ mode: entry.mode.replace(/^0+/, ''), name: entry.path, oid: entry.oid, type: entry.type }));
  } catch (error) {
    if (isGitError(error, 'NotFoundError', 'ObjectTypeError')) throw new ObjectNotFoundError(repo.spaceId, oid, path || undefined);
    throw error;
  }
  Object.freeze(entries);
  repo.caches.trees.set(key, entries);
  return entries;
}
