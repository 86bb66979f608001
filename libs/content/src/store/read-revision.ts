import { gitFs as fs } from './git-fs';
import git from 'isomorphic-git';
import { cacheKey, OID, type RevisionCommit, type SpaceRepo } from './space-repo';
import { RevisionNotFoundError } from './store.errors';

/** The commit behind a revision: its tree, parents, message and author. */
export async function readRevision(repo: SpaceRepo, revision: string): Promise<RevisionCommit> {
  const key = cacheKey(repo, revision);
  const cached = repo.caches.commits.get(key);
  if (cached) return cached;
  if (!OID.test(revision)) throw new RevisionNotFoundError(repo.spaceId, revision);
  let commit: Awaited<ReturnType<typeof git.readCommit>>['commit'];
  try {
    ({ commit } = await git.readCommit({ fs, gitdir: repo.gitdir, oid: revision }));
  } catch (error) {
    // NotFoundError (no such object, or no repository at all) and ObjectTypeError (a blob
    // or tree oid) both mean the same to a caller: there is no such revision.
    if (isGitError(error, 'NotFoundError', 'ObjectTypeError')) throw new RevisionNotFoundError(repo.spaceId, revision);
    throw error;
  }
  const result: RevisionCommit = {
    oid: revision,
    tree: commit.tree,
    parents: commit.parent,
    message: commit.message,
    author: { name: commit.author.name, email: commit.author.email },
    timestamp: new Date(commit.author.timestamp * 1000),
  };
  repo.caches.commits.set(key, result);
  return result;
}

export function isGitError(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && codes.includes((error as { code?: string }).code ?? '');
}
