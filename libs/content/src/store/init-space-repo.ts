import { gitFs as fs } from './git-fs';
import git from 'isomorphic-git';
import type { SpaceRepo } from './space-repo';

/** Creates the space's bare repository; does nothing when it already exists. */
export async function initSpaceRepo(repo: SpaceRepo): Promise<void> {
  if (repo.caches.initialised.has(repo.gitdir)) return;
  await git.init({ fs, gitdir: repo.gitdir, bare: true, defaultBranch: 'main' });
  repo.caches.initialised.add(repo.gitdir);
}
