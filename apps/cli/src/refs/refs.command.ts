import { existsSync } from 'fs';
import { Runtime } from '@quire/infrastructure/runtime';

type Out = Pick<NodeJS.WriteStream, 'write'>;

export interface RefsBackfillResult {
  spaces: number;
  revisions: number;
  liveRefs: number;
  /** Revisions the read model names whose commit is not in the space's repository. */
  missing: Array<{ spaceId: string; revision: string }>;
}

/**
 * `npm run cli -- refs`: gives space repositories written before Quire kept refs what it now
 * writes with every revision: `refs/quire/revisions/<id>` at each head and `refs/heads/main`
 * at the live revision, so `git gc --prune` keeps all history and a clone checks out the live
 * content. Revisions are taken in creation order, as they were written, so each one ends up a
 * tip or an ancestor of one. Idempotent, and safe beside a running server on PostgreSQL (the
 * embedded database admits one process): a revision written meanwhile records its own tip, and
 * the live ref only ever moves forward.
 */
export async function backfillRefs(runtime: Runtime, out: Out = process.stdout): Promise<RefsBackfillResult> {
  const { db, contentStore } = runtime;
  const spaces = await db.query<{ id: string; revision: string | null }>(`SELECT id, revision FROM rm_spaces ORDER BY id`);
  const result: RefsBackfillResult = { spaces: 0, revisions: 0, liveRefs: 0, missing: [] };
  for (const space of spaces.rows) {
    if (!existsSync(contentStore.repositoryPath(space.id))) continue;
    result.spaces++;
    const revisions = await db.query<{ id: string }>(`SELECT id FROM rm_revisions WHERE space_id = $1 ORDER BY created_at, id`, [space.id]);
    for (const revision of revisions.rows) {
      // The commit's own parents: they are what keeps an ancestor reachable.
      const commit = await contentStore.readRevision(space.id, revision.id).catch(() => undefined);
      if (!commit) {
        result.missing.push({ spaceId: space.id, revision: revision.id });
        continue;
      }
      await contentStore.recordRevisionTip(space.id, revision.id, commit.parents);
      result.revisions++;
    }
    if (space.revision && !result.missing.some((m) => m.spaceId === space.id && m.revision === space.revision)) {
      await contentStore.setLiveRevision(space.id, space.revision);
      result.liveRefs++;
    }
  }
  out.write(`refs: ${result.revisions} revisions in ${result.spaces} space repositories; refs/heads/main set in ${result.liveRefs}\n`);
  for (const m of result.missing) out.write(`  missing from the repository: space ${m.spaceId}, revision ${m.revision}\n`);
  return result;
}
