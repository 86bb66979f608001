import { Runtime } from '@quire/infrastructure/runtime';
import { compareReadModels } from '@quire/projections/compare-read-models';
import { checkContentReferences } from './content-references';

export interface CheckReport {
  /** One line per problem; empty when the installation is sound. */
  findings: string[];
  summary: string;
}

/** How long the check lets running projections catch up before calling them behind. */
const CATCH_UP_WAIT_MS = 10_000;

/**
 * `npm run cli -- check`: the installation's integrity. Projections are healthy and caught up;
 * every commit and blob an event names is in its space's repository; every read model equals
 * what a replay of the events builds. Reads only (the replay goes to scratch tables, dropped
 * afterwards), so it may run beside a live server on PostgreSQL; on the embedded database, stop
 * the server first (one process at a time).
 */
export async function check(runtime: Runtime, progress: (line: string) => void = () => undefined): Promise<CheckReport> {
  const findings: string[] = [];

  progress('projections: health and lag');
  const caughtUp = await waitForCatchUp(runtime, CATCH_UP_WAIT_MS);
  for (const row of await runtime.projector.status()) {
    if (row.status === 'failed') findings.push(`projection ${row.name} is stopped: ${row.error ?? 'failed'}`);
  }
  if (caughtUp.behind > 0) findings.push(`projections are ${caughtUp.behind}${caughtUp.behind >= 1000 ? '+' : ''} events behind the event store (slowest at its checkpoint)`);

  progress('content: commits and blobs named by events');
  const content = await checkContentReferences(runtime.store, runtime.contentStore);
  for (const m of content.missing) findings.push(`space ${m.spaceId}: ${m.kind} ${m.oid} is missing from the repository (named by ${m.namedBy})`);

  progress('read models: replay into scratch tables and compare');
  const healthy = runtime.projector.projections.filter((p) => !caughtUp.failed.includes(p.name));
  const comparison = await compareReadModels({ db: runtime.db, store: runtime.store, projections: healthy });
  for (const u of comparison.unreplayable) findings.push(`read model ${u.projection}: a replay of the events fails, so it was not compared: ${u.error}`);
  for (const d of comparison.differences) {
    findings.push(`read model ${d.projection}, table ${d.table}: differs from a replay of the events (${d.onlyLive} row(s) only in the live table, ${d.onlyReplay} only in the replay)`);
  }

  const summary =
    `${content.events} events, ${content.commits} commits and ${content.blobs} blobs checked, ` +
    `${comparison.tables} read-model tables compared with a replay: ${findings.length ? `${findings.length} finding(s)` : 'no findings'}`;
  return { findings, summary };
}

async function waitForCatchUp(runtime: Runtime, timeoutMs: number): Promise<{ behind: number; failed: string[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lag = await runtime.projector.lag();
    if (lag.behind === 0 || Date.now() >= deadline) return lag;
    await new Promise((r) => setTimeout(r, 250));
  }
}
