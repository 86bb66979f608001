import { performance } from 'perf_hooks';
import { startTestQuire } from '../test/support/quire-app';
import { changeRequestEditing, PAGES, seedLargeSpace } from './merge';

/**
 * `npm run bench -- revision-changes`: GitBook's semantic changes of a merge revision that
 * touched 100 of a 1,000-page space's pages (GET .../revisions/{revisionId}/changes?limit=1000),
 * the first call (computed from the two page trees) and again (kept: revisions never change),
 * side by side with the read of the same revision (GET .../revisions/{revisionId}, the tree
 * alone) as the baseline, and the change request's changes against its base.
 * Target: the first call under 200 ms. BENCH_CHANGES_RUNS spaces (3); the median is the figure.
 * The routes are called once on a small space first, so that run 1 measures an uncached pair of
 * revisions rather than the process's first request on those routes (a cold start of ~300 ms).
 */
const RUNS = Number(process.env.BENCH_CHANGES_RUNS ?? 3);
const WARM_CALLS = 20;

export async function run(): Promise<void> {
  const q = await startTestQuire();
  try {
    const owner = await q.createUser('Changes bench');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Changes bench' } })).body.id;
    const small = (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: 'Warm-up' } })).body;
    await q.http('GET', `/v1/spaces/${small.id}/revisions/${small.revision}/changes`, { token: owner.token });
    await q.http('GET', `/v1/spaces/${small.id}/revisions/${small.revision}`, { token: owner.token });
    const cold: number[] = [];
    const warm: number[] = [];
    const tree: number[] = [];
    const cr: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { spaceId, pages } = await seedLargeSpace(q, owner.token, orgId, `Changes bench ${i}`);
      const edited = await changeRequestEditing(q, owner.token, spaceId, pages.slice(100, 200), 'edited by the change request');
      // The space moved meanwhile: a real 3-way merge revision, two parents.
      const mover = await changeRequestEditing(q, owner.token, spaceId, pages.slice(500, 510), 'edited on the space meanwhile');
      await q.http('POST', `/v1/spaces/${spaceId}/change-requests/${mover}/merge`, { token: owner.token });
      const merged = await q.http('POST', `/v1/spaces/${spaceId}/change-requests/${edited}/merge`, { token: owner.token });
      if (merged.body?.result !== 'merge') throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
      const revision = merged.body.revision as string;

      const timed = async (path: string, check?: (body: any) => void) => {
        const t0 = performance.now();
        const r = await q.http('GET', path, { token: owner.token });
        const ms = performance.now() - t0;
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        check?.(r.body);
        return ms;
      };
      const hundredEdits = (body: any) => {
        const edits = body.changes.filter((c: any) => c.type === 'page_edited').length;
        if (edits !== 100 || body.more) throw new Error(`expected 100 page edits, got ${edits} (more: ${body.more})`);
      };
      cold.push(await timed(`/v1/spaces/${spaceId}/revisions/${revision}/changes?limit=1000`, hundredEdits));
      const warmRuns: number[] = [];
      const treeRuns: number[] = [];
      for (let k = 0; k < WARM_CALLS; k++) {
        warmRuns.push(await timed(`/v1/spaces/${spaceId}/revisions/${revision}/changes?limit=1000`));
        treeRuns.push(await timed(`/v1/spaces/${spaceId}/revisions/${revision}?metadata=false`));
      }
      warm.push(median(warmRuns));
      tree.push(median(treeRuns));
      cr.push(await timed(`/v1/spaces/${spaceId}/change-requests/${edited}/changes?limit=1000`, hundredEdits));
      process.stdout.write(`  run ${i + 1}: changes ${cold[i].toFixed(0)} ms first, ${warm[i].toFixed(1)} ms again; revision read ${tree[i].toFixed(1)} ms\n`);
    }
    line(`changes of a merge touching 100 of ${PAGES} pages, first call: median`, median(cold), 'ms', median(cold) < 200, '< 200');
    line('  again (kept per pair of revisions): median', median(warm), 'ms');
    line('  baseline: GET the same revision (its tree): median', median(tree), 'ms');
    line('  first call / revision read', median(cold) / median(tree), 'x');
    line(`changes of the change request against its base (first call): median`, median(cr), 'ms', median(cr) < 200, '< 200');
  } finally {
    await q.close();
  }
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function line(label: string, value: number, unit: string, ok?: boolean, target?: string): void {
  const verdict = ok === undefined ? '' : `  (target ${target}: ${ok ? 'ok' : 'MISSED'})`;
  process.stdout.write(`${label.padEnd(72)} ${value.toFixed(unit === 'x' ? 2 : 1).padStart(8)} ${unit}${verdict}\n`);
}
