import { readRevision } from './read-revision';
import type { SpaceRepo } from './space-repo';

export interface IsAncestorOptions {
  ancestor: string;
  descendant: string;
}

/**
 * True when `descendant` is `ancestor` or has it in its history: merging the descendant
 * into the ancestor is then a fast-forward. Both must exist (RevisionNotFoundError).
 */
export async function isAncestor(repo: SpaceRepo, opts: IsAncestorOptions): Promise<boolean> {
  await readRevision(repo, opts.ancestor);
  if (opts.ancestor === opts.descendant) {
    return true;
  }
  // Breadth first over parents; each commit is read once (and cached for the next call).
  const seen = new Set<string>([opts.descendant]);
  let frontier = [opts.descendant];
  while (frontier.length > 0) {
    const commits = await Promise.all(frontier.map((oid) => readRevision(repo, oid)));
    const next: string[] = [];
    for (const commit of commits) {
      for (const parent of commit.parents) {
        if (parent === opts.ancestor) return true;
        if (!seen.has(parent)) {
          seen.add(parent);
          next.push(parent);
        }
      }
    }
    frontier = next;
  }
  return false;
}
