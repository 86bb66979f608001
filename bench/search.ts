import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { performance } from 'perf_hooks';
import { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { Projector } from '@quire/projections/projector';
import { ContentStore } from '@quire/content/store';
import { identityProjection } from '@quire/read-models/identity/identity.projection';
import { spacesProjection } from '@quire/read-models/spaces/spaces.projection';
import { permissionsProjection } from '@quire/read-models/permissions/permissions.projection';
import { AskPipeline, IndexStats, SearchQueries, searchProjection } from '@quire/search';
import { appendLiveRevision, appendSpaceCreated, generatedFiles, RARE_WORDS, writeRevision } from '@quire/search/testing/search-fixtures';
import { createTestDatabase, TestDatabase } from '../test/support/databases';

/**
 * `npm run bench -- search`: the search index and queries, on PostgreSQL (TEST_DATABASE_URL)
 * and on PGlite (BENCH_DB=postgres,pglite picks; both by default).
 * 1. Index update after a 1,000-page import (10,000 sections): time from the events' append to
 *    the projection having passed them, with the indexer's phases; then a re-import where 5% of
 *    the pages changed.
 * 2. Space search over that space, 10,000 sections indexed: p50 / p99 over a mix of queries
 *    (common and rare words, prefixes, phrases, typos, no match), each query run
 *    BENCH_ITERATIONS (20) times after a warm-up pass.
 * 3. Org search over 50 spaces (the big one and 49 of 200 sections: 19,850 sections indexed),
 *    the permission filter included.
 * 4. Ask without a model over the same organization.
 * Targets: index update < 5 s; space search p50 < 10 ms, p99 < 30 ms; org search p99 < 60 ms;
 * ask p99 < 100 ms. Latencies are of the query layer (no HTTP), measured after a warm-up pass.
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20);

/** A mix of queries: common and rare words, prefixes, a phrase, typos, no match. */
export const SEARCHES = [
  'buffer',
  'buffer plugin',
  'configure the cluster',
  'certif',
  'replica backup',
  '"disk latency"',
  `${RARE_WORDS[3]}`,
  `${RARE_WORDS[40]} ${RARE_WORDS[2]}`,
  `${RARE_WORDS[400]}`,
  `${RARE_WORDS[10].slice(0, 5)}`,
  'certficate',
  `${RARE_WORDS[25].slice(0, -1)}x`,
  'dashbord alert',
  'zebra',
  'timeout retry limit',
  `monitor ${RARE_WORDS[7]}`,
];
const QUESTIONS = [
  'How do I configure the buffer plugin?',
  'What is the default timeout for a worker queue?',
  `How does ${RARE_WORDS[12]} work with replicas?`,
  'Can I restore a backup of a tenant?',
  'what about zebras?',
];

export async function run(): Promise<void> {
  for (const kind of (process.env.BENCH_DB ?? 'postgres,pglite').split(',')) await benchOn(kind.trim() as 'postgres' | 'pglite');
}

async function benchOn(kind: 'postgres' | 'pglite'): Promise<void> {
  process.stdout.write(`\n## ${kind}\n`);
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-search-'));
  let database: TestDatabase | undefined;
  let db: Db;
  if (kind === 'postgres') {
    database = await createTestDatabase('quire_bench');
    db = new PgDb(database.url);
  } else db = await PgliteDb.open(join(dataDir, 'pglite'));
  const content = new ContentStore({ dataDir });
  const stats = new Map<string, IndexStats>();
  const store = await SqlEventStore.create(db);
  const projector = new Projector(db, store, [
    identityProjection,
    spacesProjection,
    permissionsProjection,
    searchProjection(content, { onIndexed: (spaceId, s) => stats.set(spaceId, s) }),
  ]);
  try {
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const org = 'benchorg';
    const reader = 'benchreader';
    const at = new Date().toISOString();
    await store.append(`org-${org}`, [
      { type: 'OrganizationCreated', data: { organizationId: org, title: 'Bench', createdBy: reader, createdAt: at } },
      { type: 'OrganizationMemberRoleSet', data: { organizationId: org, userId: reader, role: 'read', at } },
    ], 'any');

    // 1. The 1,000-page import.
    await appendSpaceCreated(store, { spaceId: 'big', organizationId: org, title: 'Big' });
    const files = generatedFiles({ pages: 1000, sectionsPerPage: 10 });
    const first = await writeRevision(content, 'big', files);
    let started = performance.now();
    let position = await appendLiveRevision(store, 'big', first);
    await projector.waitFor(position, ['SpaceRevisionChanged'], 300_000);
    const importMs = performance.now() - started;
    const s1 = stats.get('big')!;
    line('index update after a 1,000-page import', importMs, 'ms', importMs < 5000, '< 5000');
    process.stdout.write(`    ${s1.pages} pages, ${s1.sections} sections; phases ms ${JSON.stringify(s1.ms)}\n`);

    const changed = { ...files };
    Object.keys(changed).filter((f) => f.startsWith('section-')).slice(0, 50).forEach((f) => {
      changed[f] = new TextEncoder().encode(new TextDecoder().decode(changed[f]) + '\nA new closing paragraph about the rollout.\n');
    });
    const second = await writeRevision(content, 'big', changed, first);
    started = performance.now();
    position = await appendLiveRevision(store, 'big', second, { parents: [first.revision] });
    await projector.waitFor(position, ['SpaceRevisionChanged'], 300_000);
    const reimportMs = performance.now() - started;
    line('index update after a re-import, 50 of 1,000 pages changed', reimportMs, 'ms');
    process.stdout.write(`    reindexed ${stats.get('big')!.reindexed} pages; phases ms ${JSON.stringify(stats.get('big')!.ms)}\n`);

    const queries = new SearchQueries(db);
    const caller = { userId: reader, instanceAdmin: false };

    // 2. Space search.
    const space = await measure(SEARCHES, (q) => queries.searchSpace('big', q, { limit: 20 }));
    line('space search (10,000 sections): p50', space.p50, 'ms', space.p50 < 10, '< 10');
    line('space search (10,000 sections): p99', space.p99, 'ms', space.p99 < 30, '< 30');
    process.stdout.write(`    median per query (ms): ${space.perQuery.map(([q, ms]) => `${JSON.stringify(q)} ${ms.toFixed(1)}`).join(', ')}\n`);
    const hundred = await measure(SEARCHES, (q) => queries.searchSpace('big', q, { limit: 100 }));
    line('space search, limit=100 (the API default): p50', hundred.p50, 'ms');
    line('space search, limit=100 (the API default): p99', hundred.p99, 'ms');

    // 49 more spaces for the organization.
    for (let i = 0; i < 49; i++) {
      const spaceId = `small${i}`;
      await appendSpaceCreated(store, { spaceId, organizationId: org, title: `Small ${i}` });
      const rev = await writeRevision(content, spaceId, generatedFiles({ pages: 20, sectionsPerPage: 10, seed: i + 2 }));
      position = await appendLiveRevision(store, spaceId, rev);
    }
    await projector.waitFor(position, ['SpaceRevisionChanged'], 300_000);
    const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_search_sections`);
    process.stdout.write(`    ${total.rows[0].n} sections indexed in all\n`);

    // 3. Org search (permission filter included).
    const orgSearch = await measure(SEARCHES, async (q) => queries.searchSpaces(await queries.readableSpaces(org, caller), q, { limit: 20 }));
    const readable = await queries.readableSpaces(org, caller);
    line(`org search over ${readable.length} spaces: p50`, orgSearch.p50, 'ms');
    line(`org search over ${readable.length} spaces: p99`, orgSearch.p99, 'ms', orgSearch.p99 < 60, '< 60');
    process.stdout.write(`    median per query (ms): ${orgSearch.perQuery.map(([q, ms]) => `${JSON.stringify(q)} ${ms.toFixed(1)}`).join(', ')}\n`);

    // 4. Ask without a model.
    const ask = new AskPipeline(queries);
    const link = ({ spaceId, path, sectionId }: { spaceId: string; path: string; sectionId: string }) => `http://localhost/s/${spaceId}/${path}#${sectionId}`;
    const asked = await measure(QUESTIONS, async (q) => ask.ask({ spaces: await queries.readableSpaces(org, caller), query: q, link }));
    line('ask without a model: p50', asked.p50, 'ms');
    line('ask without a model: p99', asked.p99, 'ms', asked.p99 < 100, '< 100');
  } finally {
    await projector.stop();
    await db.close();
    if (process.env.BENCH_KEEP && database) process.stdout.write(`    kept ${database.url}\n`);
    else await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(inputs: string[], call: (q: string) => Promise<unknown>) {
  for (const q of inputs) await call(q); // warm-up: plans, stems, JIT
  const samples: number[] = [];
  const byQuery = new Map<string, number[]>();
  for (let i = 0; i < ITERATIONS; i++) {
    for (const q of inputs) {
      const started = performance.now();
      await call(q);
      const ms = performance.now() - started;
      samples.push(ms);
      byQuery.set(q, [...(byQuery.get(q) ?? []), ms]);
    }
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { p50: at(0.5), p99: at(0.99), perQuery: [...byQuery].map(([q, xs]) => [q, median(xs)] as [string, number]) };
}

function line(label: string, value: number, unit: string, ok?: boolean, target?: string): void {
  const verdict = ok === undefined ? '' : ok ? `  ok (${target})` : `  MISSED (${target})`;
  process.stdout.write(`  ${label}: ${value.toFixed(1)} ${unit}${verdict}\n`);
}
