import { randomBytes } from 'crypto';
import * as fs from 'fs';
import git from 'isomorphic-git';
import { dirname, join } from 'path';
import { gitFs } from './git-fs';
import { isAncestor } from './is-ancestor';
import type { SpaceRepo } from './space-repo';

/** The branch a clone checks out: the space's live revision. */
export const LIVE_REF = 'refs/heads/main';
/** One ref per revision that no later written revision descends from (a "tip"). */
const TIPS = 'refs/quire/revisions';

/**
 * Keeps every written revision reachable from a ref, so `git gc --prune` never deletes
 * history the events name, and a clone gets all of it. A new revision gets a tip ref
 * first; only then do its parents' tip refs go (they stay reachable through it). So at
 * every instant each revision is a tip or an ancestor of one, whatever other writers
 * do at the same time, and the number of refs is the number of heads (the live chain,
 * open change requests, standalone imports), not of revisions.
 */
export async function recordTip(repo: SpaceRepo, revision: string, parents: readonly string[]): Promise<void> {
  await writeLooseRef(repo, `${TIPS}/${revision}`, revision);
  // A ref left packed by `git gc` stays: it only keeps an ancestor reachable twice.
  await Promise.all(parents.filter((p) => p !== revision).map((p) => fs.promises.rm(join(repo.gitdir, TIPS, p), { force: true })));
}

/**
 * Points `refs/heads/main` at the space's live revision. Live revisions descend from one
 * another, so the branch only moves forward: a writer that lost a race (its revision is
 * not a descendant of what the branch names now) leaves it alone, and a move that was
 * missed (a crash after the event was appended) is made good by the next one.
 */
export async function advanceLiveRef(repo: SpaceRepo, revision: string): Promise<void> {
  let current: string | undefined;
  try {
    current = await git.resolveRef({ fs: gitFs, gitdir: repo.gitdir, ref: LIVE_REF });
  } catch {
    current = undefined;
  }
  if (current === revision) return;
  if (current && !(await isAncestor(repo, { ancestor: current, descendant: revision }).catch(() => true))) return;
  await writeLooseRef(repo, LIVE_REF, revision);
}

/** A loose ref written as git does: a temporary file renamed into place, never half-written. */
async function writeLooseRef(repo: SpaceRepo, ref: string, oid: string): Promise<void> {
  const path = join(repo.gitdir, ref);
  // Outside refs/, so git never lists a half-made or stray temporary file as a ref.
  const temporary = join(repo.gitdir, `tmp_ref_${process.pid}_${randomBytes(6).toString('hex')}`);
  await fs.promises.mkdir(dirname(path), { recursive: true });
  try {
    await fs.promises.writeFile(temporary, `${oid}\n`);
    await fs.promises.rename(temporary, path);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}
