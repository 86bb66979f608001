import { spawn } from 'child_process';
import { randomUUID } from 'crypto';
import { loadavg } from 'os';
import { dirname, join, resolve as resolvePath } from 'path';
import { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { rebuildProjections } from '@quire/projections/rebuild';
import { identityProjection } from '@quire/read-models/identity/identity.projection';
import { spacesProjection } from '@quire/read-models/spaces/spaces.projection';
import { collectionsProjection } from '@quire/read-models/collections/collections.projection';
import { permissionsProjection } from '@quire/read-models/permissions/permissions.projection';
import { changeRequestsProjection } from '@quire/read-models/change-requests/change-requests.projection';
import { liveTables, Projection } from '@quire/projections/projection';
import { NewEvent } from '@quire/event-store/event-store.port';
import { START } from '@quire/event-store/position';
import { createTestDatabase, TEST_POSTGRES_URL } from '../test/support/databases';
import { processCpuMs } from '../test/support/process-cpu';
import { profiled } from './support/cpu-profile';
import { WORKER_NODE_FLAGS } from '../apps/worker/src/node-flags';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Interleaved rounds: each figure and its baseline run once per round; medians are reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Domain events seeded for the replay figures (BENCH_REPLAY_EVENTS). */
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 20_000);
/** BENCH_ONLY=replay skips the append figures, BENCH_ONLY=append the replay ones. */
const ONLY = process.env.BENCH_ONLY;
/** BENCH_DB=postgres or BENCH_DB=pglite runs one database's figures only. */
const DB = process.env.BENCH_DB;
// BENCH_CPU_PROFILE=<dir> writes a CPU profile of each replay (the rebuild alone) there (support/cpu-profile.ts).

/**
 * QUIRE_BENCH_BASELINE_DIR=<checkout> (e.g. `git worktree add /tmp/base main`): that checkout's
 * event store appends too, in a database of its own, interleaved with this one's and against
 * the same plain INSERTs (PostgreSQL append figures).
 */
const BASELINE_DIR = process.env.QUIRE_BENCH_BASELINE_DIR;

/** Runs `writers` loops of `step` for SECONDS; returns events per second. */
async function writeRate(writers: number, step: (writer: number, i: number) => Promise<number>): Promise<number> {
  let n = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        // Not `n += await step()`: that reads n before the await, and concurrent writers'
        // additions overwrite each other (16 writers in step counted one event per round).
        const written = await step(w, i);
        n += written;
      }
    }),
  );
  return n / ((Date.now() - started) / 1000);
}

const benchEvent = (w: number, i: number): NewEvent => ({ type: 'Benched', data: { w, i } });

function singleAppends(store: SqlEventStore, writers: number): Promise<number> {
  const streams = Array.from({ length: writers }, (_, w) => `bench-single-${w}-${randomUUID()}`);
  return writeRate(writers, async (w, i) => {
    await store.append(streams[w], [benchEvent(w, i)], i === 0 ? 'no_stream' : i);
    return 1;
  });
}

function batchAppends(store: SqlEventStore, writers: number, batch: number): Promise<number> {
  const streams = Array.from({ length: writers }, (_, w) => `bench-batch-${w}-${randomUUID()}`);
  return writeRate(writers, async (w, i) => {
    await store.append(streams[w], Array.from({ length: batch }, (_, k) => benchEvent(w, k)), i === 0 ? 'no_stream' : i * batch);
    return batch;
  });
}

/** The baseline: one JSON row per event in a plain table of the same database, no guarantees. */
const PLAIN_SCHEMA = `CREATE TABLE IF NOT EXISTS bench_plain_events (id bigserial PRIMARY KEY, event jsonb NOT NULL)`;

function plainSingleInserts(db: Db, writers: number): Promise<number> {
  return writeRate(writers, async (w, i) => {
    await db.query(`INSERT INTO bench_plain_events (event) VALUES ($1)`, [JSON.stringify(benchEvent(w, i))]);
    return 1;
  });
}

function plainBatchInserts(db: Db, writers: number, batch: number): Promise<number> {
  const sql = `INSERT INTO bench_plain_events (event) VALUES ${Array.from({ length: batch }, (_, k) => `($${k + 1})`).join(', ')}`;
  return writeRate(writers, async (w) => {
    await db.query(sql, Array.from({ length: batch }, (_, k) => JSON.stringify(benchEvent(w, k))));
    return batch;
  });
}

/** The read models a replay bench rebuilds: every one that needs no page bytes from git. */
const REPLAYED: Projection[] = [identityProjection, spacesProjection, collectionsProjection, permissionsProjection, changeRequestsProjection];

/**
 * A realistic history for those read models, per organization: users with tokens and
 * memberships, nested collections with grants, spaces (some in collections) with settings
 * changes and grants, and change requests that are edited, opened and merged (their revisions
 * and the space's revision moving). About 260 events per organization.
 */
async function seedDomainEvents(store: SqlEventStore, target: number): Promise<void> {
  const perOrg = 260;
  const orgs = Math.max(1, Math.round(target / perOrg));
  const at = new Date().toISOString();
  const seedOrg = async (o: number) => {
    const org = `o${o}`;
    const users = Array.from({ length: 10 }, (_, i) => `u${o}-${i}`);
    for (const u of users) {
      await store.append(`user-${u}`, [
        { type: 'UserCreated', data: { userId: u, displayName: `User ${u}`, email: `${u}@example.com`, instanceAdmin: false, createdAt: at } },
        { type: 'AccessTokenCreated', data: { userId: u, tokenId: `t-${u}`, tokenHash: `hash-${u}`, label: 'bench', createdAt: at } },
      ], 'no_stream');
    }
    await store.append(`org-${org}`, [
      { type: 'OrganizationCreated', data: { organizationId: org, title: `Org ${o}`, hostname: `org-${o}`, createdBy: users[0], createdAt: at } },
      ...users.map((u, i) => ({ type: 'OrganizationMemberRoleSet', data: { organizationId: org, userId: u, role: i === 0 ? 'admin' : 'edit', at } })),
    ], 'no_stream');
    const collections = [`c${o}-0`, `c${o}-1`, `c${o}-2`];
    for (const [i, c] of collections.entries()) {
      await store.append(`collection-${c}`, [
        { type: 'CollectionCreated', data: { collectionId: c, organizationId: org, parent: i === 1 ? collections[0] : undefined, title: `Collection ${c}`, defaultLevel: 'inherit', createdBy: users[0], createdAt: at } },
        { type: 'CollectionUserPermissionSet', data: { collectionId: c, userId: users[1 + i], role: 'review', at } },
        { type: 'CollectionUpdated', data: { collectionId: c, changes: { description: 'Bench collection', ...(i === 0 ? { defaultLevel: 'read' } : {}) }, at } },
      ], 'no_stream');
    }
    for (let s = 0; s < 10; s++) {
      const space = `s${o}-${s}`;
      const parent = s < 6 ? collections[s % 3] : undefined;
      const events: NewEvent[] = [
        { type: 'SpaceCreated', data: { spaceId: space, organizationId: org, parent, title: `Space ${space}`, editMode: 'live', defaultLevel: 'inherit', mergeRules: { type: 'inherit' }, initialRevision: `r-${space}-0`, createdBy: users[0], createdAt: at } },
        { type: 'SpaceUpdated', data: { spaceId: space, changes: { title: `Space ${space} (renamed)`, visibility: 'private' }, at } },
        { type: 'SpaceUserPermissionSet', data: { spaceId: space, userId: users[(s % 9) + 1], role: 'edit', at } },
        { type: 'SpaceUserPermissionSet', data: { spaceId: space, userId: users[((s + 4) % 9) + 1], role: 'read', at } },
      ];
      await store.append(`space-${space}`, events, 'no_stream');
      let version = events.length;
      for (let r = 1; r <= 3; r++) {
        const cr = `cr-${space}-${r}`;
        const author = users[((s + r) % 9) + 1];
        await store.append(`change-request-${cr}`, [
          { type: 'ChangeRequestCreated', data: { changeRequestId: cr, spaceId: space, number: r, subject: `Change ${r}`, revisionInitial: `r-${space}-${r - 1}`, createdBy: author, createdAt: at } },
          { type: 'ChangeRequestDetailsChanged', data: { changeRequestId: cr, spaceId: space, description: { text: 'Why' }, by: author, at } },
          { type: 'RevisionCreated', data: { spaceId: space, changeRequestId: cr, revision: `r-${cr}`, parents: [`r-${space}-${r - 1}`], kind: 'edits', pages: [], files: [], createdBy: author, createdAt: at } },
          { type: 'ChangeRequestStatusChanged', data: { changeRequestId: cr, spaceId: space, from: 'draft', to: 'open', by: author, at } },
          { type: 'ChangeRequestMerged', data: { changeRequestId: cr, spaceId: space, requestId: `m-${cr}`, from: 'open', revisionMerged: `r-${space}-${r}`, revision: `r-${space}-${r}`, mergedBy: users[0], mergedAt: at } },
        ], 'no_stream');
        await store.append(`space-${space}`, [{ type: 'SpaceRevisionChanged', data: { spaceId: space, revision: `r-${space}-${r}` } }], version++);
      }
    }
  };
  const parallel = 8;
  for (let o = 0; o < orgs; o += parallel) await Promise.all(Array.from({ length: Math.min(parallel, orgs - o) }, (_, k) => seedOrg(o + k)));
}

/** The replay built every row the seeded history describes. */
async function expectRows(db: Db): Promise<void> {
  const orgs = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_organizations`)).rows[0].n);
  const expected: Record<string, number> = {
    rm_users: orgs * 10, rm_access_tokens: orgs * 10, rm_organization_members: orgs * 10, rm_collections: orgs * 3,
    rm_spaces: orgs * 10, rm_access_nodes: orgs * 13, rm_permission_grants: orgs * 23, rm_change_requests: orgs * 30,
  };
  for (const [table, n] of Object.entries(expected)) {
    const got = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n);
    if (orgs === 0 || got !== n) throw new Error(`replay built ${got} rows in ${table}, expected ${n}`);
  }
  const merged = Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_change_requests WHERE status = 'merged'`)).rows[0].n);
  if (merged !== orgs * 30) throw new Error(`replay merged ${merged} change requests, expected ${orgs * 30}`);
}

/** The baseline: the same event rows, read in pages of 1,000 in `$all` order; events per second. */
async function rawReadRate(db: Db, n: number): Promise<number> {
  const started = Date.now();
  let read = 0;
  let after = { tx: '0', position: '0' };
  for (;;) {
    // Keyset pages along the primary key, the events' position: `$all` order without the horizon.
    const r = await db.query<{ tx: string; global_position: string }>(
      `SELECT event_id, stream_id, stream_version, transaction_id::text AS tx, global_position::text AS global_position,
              type, schema_version, data, metadata, recorded_at
         FROM quire_events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
        ORDER BY quire_events.transaction_id, quire_events.global_position LIMIT 1000`,
      [after.tx, after.position],
    );
    read += r.rows.length;
    if (r.rows.length < 1000) break;
    const last = r.rows[r.rows.length - 1];
    after = { tx: last.tx, position: last.global_position };
  }
  if (read !== n) throw new Error(`raw read saw ${read} events, expected ${n}`);
  return read / ((Date.now() - started) / 1000);
}

/**
 * Rebuilds every replayed read model from zero as `npm run cli -- replay` does (one pass over the
 * events for all of them) and divides the events they handle by the time it took.
 */
async function replayRate(db: Db, store: SqlEventStore, n: number): Promise<number> {
  const started = Date.now();
  await profiled('replay', () => rebuildProjections({ db, store, projections: REPLAYED }));
  const rate = n / ((Date.now() - started) / 1000);
  await expectRows(db);
  return rate;
}

/** Seeds the domain history; returns how many events the replayed projections read. */
async function seedReplay(db: Db, store: SqlEventStore, label: string): Promise<number> {
  for (const p of REPLAYED) {
    await db.exec(p.tables.map((t) => `DROP TABLE IF EXISTS ${t} CASCADE;`).join('\n') + p.schema(liveTables));
  }
  const seedStarted = Date.now();
  await seedDomainEvents(store, REPLAY_EVENTS);
  const { n } = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM quire_events`)).rows[0];
  process.stdout.write(`${label}: ${n.toLocaleString('en-US')} domain events seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);
  // A store that has been running has planner statistics (autovacuum): without them `$all` reads
  // sort every remaining event instead of following the (transaction_id, global_position) index.
  await db.exec(`ANALYZE quire_events`);
  // Readers of $all see only transactions older than every one running in the cluster: a long
  // transaction elsewhere would hide the newest events, and the replay would end early.
  const visible = async () => (await store.readAll(START, 1_000_000)).length;
  for (let waited = 0; (await visible()) < n; waited++) {
    if (waited > 600) throw new Error('seeded events did not become visible to readers within a minute');
    await new Promise((r) => setTimeout(r, 100));
  }
  return n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs each named figure once per round, in the order given (a figure next to its baseline),
 * for ROUNDS rounds, and returns the median of each.
 */
async function interleaved(figures: Record<string, () => Promise<number>>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, figure] of Object.entries(figures)) (samples[name] ??= []).push(await figure());
  }
  return Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
}

function line(label: string, value: number): void {
  process.stdout.write(`${label.padEnd(58)} ${Math.round(value).toLocaleString('en-US').padStart(10)} events/s\n`);
}

/** Quire's figure, its baseline and their ratio against the target ratio. */
function compare(label: string, quire: number, baseline: string, base: number, target: number): void {
  line(`${label}`, quire);
  line(`  baseline: ${baseline}`, base);
  const ratio = quire / base;
  process.stdout.write(`  ratio ${ratio.toFixed(2)}  (target >= ${target}: ${ratio >= target ? 'ok' : 'BELOW'})\n`);
}

export async function run(): Promise<void> {
  process.stdout.write(`${ROUNDS} interleaved rounds, medians; ${SECONDS} s per write figure; load: ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
  if (ONLY !== 'replay') await appendFigures();
  if (ONLY !== 'append') await replayFigures();
  process.stdout.write(`load at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
}

/**
 * The replay figures come from a process of their own started as the processes that rebuild read
 * models are (the worker's and the CLI's V8 flags, apps/worker/src/node-flags.ts), not from this
 * one: both the rebuild and its baseline read run there.
 */
async function replayFigures(): Promise<void> {
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, '-r', '@swc-node/register', __filename], {
    env: { ...process.env, BENCH_REPLAY_CHILD: '1' },
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the replay figures' process exited with ${code}`);
}

async function replayInThisProcess(): Promise<void> {
  // Replay runs in a database of its own: only the domain events the projections read.
  if (DB !== 'pglite') await replayOnPostgres();
  if (DB !== 'postgres') await replayOnPglite();
}

if (require.main === module && process.env.BENCH_REPLAY_CHILD) {
  replayInThisProcess().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${err?.stack ?? err}\n`);
      process.exit(1);
    },
  );
}

async function replayOnPostgres(): Promise<void> {
  const replayDatabase = await createTestDatabase('quire_bench_replay');
  // Profiling: BENCH_LOG_MS=n logs the replay database's statements slower than n ms (server log).
  if (process.env.BENCH_LOG_MS) await logSlowStatements(replayDatabase.name, Number(process.env.BENCH_LOG_MS));
  const replayPg = new PgDb(replayDatabase.url, { max: 20 });
  try {
    const store = await SqlEventStore.create(replayPg);
    const n = await seedReplay(replayPg, store, 'PostgreSQL');
    const cpu: Record<string, CpuPerEvent[]> = {};
    const m = await interleaved({
      raw: () => withCpu(cpu, 'raw', replayPg, () => rawReadRate(replayPg, n)),
      replay: () => withCpu(cpu, 'replay', replayPg, () => replayRate(replayPg, store, n)),
    });
    compare(`PostgreSQL: replay into ${REPLAYED.length} read models`, m.replay, 'raw read in pages of 1,000', m.raw, 0.5);
    cpuLine(medianCpu(cpu.replay), medianCpu(cpu.raw));
  } finally {
    await replayPg.close();
    await replayDatabase.drop();
  }
}

async function logSlowStatements(database: string, ms: number): Promise<void> {
  const admin = new PgDb(TEST_POSTGRES_URL, { max: 1 });
  try {
    await admin.query(`ALTER DATABASE ${database} SET log_min_duration_statement = ${Math.round(ms)}`);
    // With the plans of the statements inside scripts (auto_explain logs each statement).
    await admin.query(`ALTER DATABASE ${database} SET session_preload_libraries = 'auto_explain'`);
    await admin.query(`ALTER DATABASE ${database} SET auto_explain.log_min_duration = ${Math.round(ms)}`);
    await admin.query(`ALTER DATABASE ${database} SET auto_explain.log_analyze = on`);
  } finally {
    await admin.close();
  }
}

async function replayOnPglite(): Promise<void> {
  const replayLite = await PgliteDb.open();
  try {
    const store = await SqlEventStore.create(replayLite);
    const n = await seedReplay(replayLite, store, 'PGlite');
    const cpu: Record<string, CpuPerEvent[]> = {};
    const m = await interleaved({
      raw: () => withCpu(cpu, 'raw', replayLite, () => rawReadRate(replayLite, n)),
      replay: () => withCpu(cpu, 'replay', replayLite, () => replayRate(replayLite, store, n)),
    });
    line(`PGlite: replay into ${REPLAYED.length} read models`, m.replay);
    line(`  raw read in pages of 1,000`, m.raw);
    process.stdout.write(`  ratio ${(m.replay / m.raw).toFixed(2)}; target >= 10,000 events/s: ${m.replay >= 10_000 ? 'ok' : 'BELOW'}\n`);
    cpuLine(medianCpu(cpu.replay), medianCpu(cpu.raw));
  } finally {
    await replayLite.close();
  }
}

async function appendFigures(): Promise<void> {
  if (DB !== 'pglite') await appendOnPostgres();
  if (DB !== 'postgres') await appendOnPglite();
}

async function appendOnPostgres(): Promise<void> {
  const database = await createTestDatabase('quire_bench');
  const pg = new PgDb(database.url, { max: 20 });
  const baselineDatabase = BASELINE_DIR ? await createTestDatabase('quire_bench_base') : undefined;
  const baselinePg = baselineDatabase ? new PgDb(baselineDatabase.url, { max: 20 }) : undefined;
  try {
    await appendOn('PostgreSQL', pg, baselinePg && (await baselineStore(baselinePg)), baselinePg);
  } finally {
    await pg.close();
    await database.drop();
    await baselinePg?.close();
    await baselineDatabase?.drop();
  }
}

/**
 * The baseline checkout's event store (its own schema, append and event ids) over `db`. The
 * TypeScript loader rewrites its `@quire/...` imports into paths to this checkout's libs: those
 * are sent back into the baseline checkout.
 */
async function baselineStore(db: Db): Promise<SqlEventStore> {
  const root = resolvePath(BASELINE_DIR!);
  const here = resolvePath(__dirname, '..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('module') as { _resolveFilename: (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    if (parent?.filename?.startsWith(root + '/') && request.startsWith('.')) {
      const target = resolvePath(dirname(parent.filename), request);
      if (target.startsWith(here + '/')) request = root + target.slice(here.length);
    }
    return resolve.call(this, request, parent, ...rest);
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SqlEventStore: Baseline } = require(join(root, 'libs/event-store/src/sql/sql-event-store')) as { SqlEventStore: typeof SqlEventStore };
  return Baseline.create(db);
}

async function appendOnPglite(): Promise<void> {
  const lite = await PgliteDb.open();
  try {
    await appendOn('PGlite', lite);
  } finally {
    await lite.close();
  }
}

/** Quire's appends and the plain INSERTs, in the same database, interleaved (and the baseline checkout's appends). */
async function appendOn(label: string, db: Db, baseline?: SqlEventStore, baselineDb?: Db): Promise<void> {
  const store = await SqlEventStore.create(db);
  await db.exec(PLAIN_SCHEMA);
  const cpu: Record<string, CpuPerEvent[]> = {};
  const m = await interleaved({
    plainSingle: () => withCpu(cpu, 'plainSingle', db, () => plainSingleInserts(db, 16)),
    single: () => withCpu(cpu, 'single', db, () => singleAppends(store, 16)),
    ...(baseline ? { baselineSingle: () => withCpu(cpu, 'baselineSingle', baselineDb!, () => singleAppends(baseline, 16)) } : {}),
    plainBatch: () => withCpu(cpu, 'plainBatch', db, () => plainBatchInserts(db, 4, 100)),
    batch: () => withCpu(cpu, 'batch', db, () => batchAppends(store, 4, 100)),
    ...(baseline ? { baselineBatch: () => withCpu(cpu, 'baselineBatch', baselineDb!, () => batchAppends(baseline, 4, 100)) } : {}),
  });
  const c = Object.fromEntries(Object.entries(cpu).map(([name, xs]) => [name, medianCpu(xs)]));
  compare(`${label}: append, 16 single-event writers`, m.single, 'plain INSERT of one JSON row', m.plainSingle, 0.8);
  cpuLine(c.single, c.plainSingle);
  if (baseline) compare(`  ${BASELINE_DIR}'s append, 16 single-event writers`, m.baselineSingle, 'the same plain INSERT', m.plainSingle, 0.8);
  if (baseline) cpuLine(c.baselineSingle, c.plainSingle);
  compare(`${label}: append, 100-event batches, 4 writers`, m.batch, 'plain multi-row INSERT of 100', m.plainBatch, 0.7);
  cpuLine(c.batch, c.plainBatch);
  if (baseline) compare(`  ${BASELINE_DIR}'s append, 100-event batches`, m.baselineBatch, 'the same multi-row INSERT', m.plainBatch, 0.7);
  if (baseline) cpuLine(c.baselineBatch, c.plainBatch);
}

/** CPU microseconds per event of a figure: this process's, and the PostgreSQL server processes'. */
type CpuPerEvent = { client: number; server: number };

/**
 * CPU time (user + system, microseconds) of this process and of the server processes serving
 * `db`'s database, read from /proc (a server on this host; a process whose /proc cannot be read
 * counts as NaN; PGlite has none, it runs in this process). On a shared host it is steadier than
 * the rate: other work slows a figure down without adding to it.
 */
async function cpuMicros(db: Db): Promise<{ client: number; server: Map<number, number> }> {
  const usage = process.cpuUsage();
  const server = new Map<number, number>();
  if (db.kind !== 'pglite') {
    const pids = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
    for (const { pid } of pids.rows) {
      try {
        server.set(pid, processCpuMs(pid) * 1000);
      } catch {
        server.set(pid, NaN);
      }
    }
  }
  return { client: usage.user + usage.system, server };
}

/** Runs a figure (events per second) and records the CPU microseconds it took per event (client and server). */
async function withCpu(into: Record<string, CpuPerEvent[]>, name: string, db: Db, figure: () => Promise<number>): Promise<number> {
  const before = await cpuMicros(db);
  const started = Date.now();
  const rate = await figure();
  const events = (rate * (Date.now() - started)) / 1000;
  const after = await cpuMicros(db);
  // A server process started during the figure counts from zero; one that ended is not counted.
  let server = 0;
  for (const [pid, us] of after.server) server += us - (before.server.get(pid) ?? 0);
  (into[name] ??= []).push({ client: (after.client - before.client) / events, server: server / events });
  return rate;
}

/** The median client and server CPU per event of a figure's rounds. */
function medianCpu(xs: CpuPerEvent[]): CpuPerEvent {
  return { client: median(xs.map((x) => x.client)), server: median(xs.map((x) => x.server)) };
}

/** The CPU line under a figure; PGlite runs inside this process, so its server time is the client's. */
function cpuLine(quire: CpuPerEvent, base: CpuPerEvent): void {
  const shown = (us: CpuPerEvent) =>
    Number.isNaN(us.server) ? `${us.client.toFixed(1)} + n/a us` : `${us.client.toFixed(1)} + ${us.server.toFixed(1)} = ${(us.client + us.server).toFixed(1)} us`;
  const ratio = (base.client + base.server) / (quire.client + quire.server);
  process.stdout.write(`  CPU per event (client + server): ${shown(quire)} against ${shown(base)}; ratio ${ratio.toFixed(2)}\n`);
}
