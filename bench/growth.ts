import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { loadavg } from 'os';
import { join } from 'path';
import { performance } from 'perf_hooks';
import { generatedFiles } from '@quire/search/testing/search-fixtures';
import { ApiProcess } from '../test/chaos/chaos-support';
import { createTestDatabase } from '../test/support/databases';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { recordImport } from './merge';
import { SEARCHES } from './search';
import { BenchRequest, LoadFigures, measureLoad, percentile } from './support/same-body-baseline';
import { TimedClient } from './support/timed-client';

/**
 * `npm run bench -- growth`: how reads and search hold up as an organization grows.
 * Two installations, each seeded by this process (which runs their worker and projector):
 * - one space of BENCH_PAGES (1,000) generated pages of BENCH_SECTIONS (4) sections, published as
 *   a site;
 * - the same first space and site, and BENCH_SPACES - 1 (99) more spaces like it in the same
 *   organization (different text each), appended as events in bulk the way an import records them
 *   (no git import), projected.
 * Each is served by its own API process (`apps/api`, no projections: the deployment's API
 * replica). Measured on the first space, whose 1,000 pages each load cycles through:
 * GET content/path/{path} as markdown and as document (member's token), the published site page
 * (POST /v1/urls/published, then the page's document with the site token). First each page once,
 * one request at a time (cold caches: what a read costs before the process has computed anything
 * from the revision); then BENCH_ROUNDS (3) rounds, each load with BENCH_CONNECTIONS (8)
 * connections for BENCH_SECONDS (10 s) after a 2 s warm-up, the installations interleaved figure
 * by figure, medians taken (p50 and p99 from every response's own time, to a fraction of a
 * millisecond: autocannon's histogram truncates a 2.9 ms p99 to 2); then space and org search,
 * one request at a time from a process of its own (TimedClient: not this one, whose own GC pauses
 * fell inside them), a mix of queries (bench/search.ts's) BENCH_ITERATIONS (10) times after
 * a warm-up pass (BENCH_SEARCH=0: not; BENCH_READS=0: search only), with the API process's CPU time
 * per search request (from /proc: what the host's load sways far less than latency).
 * Targets: page and site reads p99 within 20% of the 1-space p99; space search p99 < 30 ms; org
 * search p99 < 60 ms; peak RSS of the API process serving 100 spaces (VmHWM) < 1 GB.
 * BENCH_GROWTH_DATA=<dir> keeps the seeded installations for later runs (seededInstallation).
 * QUIRE_BENCH_BASELINE_DIR=<checkout> also serves both installations with that checkout's API
 * (e.g. `git worktree add /tmp/base main`), measured in the same rounds.
 * A short run: BENCH_SPACES=10 BENCH_PAGES=200 BENCH_SECONDS=2.
 */
const SPACES = Number(process.env.BENCH_SPACES ?? 100);
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const SECTIONS = Number(process.env.BENCH_SECTIONS ?? 4);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEEP = process.env.BENCH_GROWTH_DATA;
const BASELINE_DIR = process.env.QUIRE_BENCH_BASELINE_DIR;
/** BENCH_SEARCH=0 leaves the search figures out (org search over 100 spaces takes minutes a round). */
const SEARCH = process.env.BENCH_SEARCH !== '0';
/** BENCH_READS=0 leaves the page and site reads out (search only: minutes less a run). */
const READS = process.env.BENCH_READS !== '0';

/** The loads measured, in the order of each round. */
const LOADS = {
  markdown: 'GET content/path/{path}?format=markdown',
  document: 'GET content/path/{path}?format=document',
  siteResolve: 'POST /v1/urls/published (site page URL)',
  sitePage: 'GET content/page/{id} with the site token',
} as const;
type LoadName = keyof typeof LOADS;

interface Latency {
  p50: number;
  p99: number;
  perQuery: Array<[string, number]>;
  /** The API process's CPU time per request over the measured iterations, in ms (a figure the host's load sways far less than latency). */
  apiCpuMs: number;
}
interface Searches {
  spaceSearch: Latency;
  orgSearch: Latency;
}
/** What a seeded installation is read with (kept in state.json with BENCH_GROWTH_DATA). */
interface Seeded {
  database?: string;
  dataDir?: string;
  orgId: string;
  hostname: string;
  readerToken: string;
  first: { spaceId: string; pages: Array<{ id: string; path: string }> };
}
interface Served {
  label: string;
  api: ApiProcess;
  seeded: Seeded;
  loads: Record<LoadName, { token?: string; requests: BenchRequest[]; rounds: Array<LoadFigures & { cpuMs: number }>; first?: { p50: number; p99: number } }>;
  searches: Searches[];
  peakRss: number;
}

export async function run(): Promise<void> {
  const installations: Array<{ q: TestQuire; seeded: Seeded; spaces: number; drop?: () => Promise<void> }> = [];
  const served: Served[] = [];
  try {
    for (const spaces of [1, SPACES]) installations.push({ spaces, ...(await seededInstallation(spaces)) });
    for (const { q, seeded, spaces } of installations) {
      for (const [side, root] of [['Quire', undefined], ...(BASELINE_DIR ? [['baseline', BASELINE_DIR]] : [])] as Array<[string, string | undefined]>) {
        const api = new ApiProcess(q.config, { root });
        await api.start();
        served.push({ label: `${side}, ${spaces} space${spaces === 1 ? '' : 's'}`, api, seeded, loads: await loadsOf(api.url, seeded, q.config.publishedUrl), searches: [], peakRss: 0 });
      }
    }
    const sampler = setInterval(() => served.forEach((s) => (s.peakRss = Math.max(s.peakRss, s.api.memory().rss))), 200);
    try {
      // Each page once, one request at a time, before any load: what a read costs while the
      // process has not computed anything from the revision yet.
      if (READS) process.stdout.write(`\n  first read of every page (cold caches), one at a time (load average ${loadAverage()})\n`);
      for (const name of READS ? (Object.keys(LOADS) as LoadName[]) : []) {
        for (const s of served) {
          const l = s.loads[name];
          l.first = await sequential(s.api.url, l.token, l.requests);
          process.stdout.write(`    ${LOADS[name].padEnd(50)} ${s.label.padEnd(20)} p50 ${l.first.p50.toFixed(1).padStart(6)} ms  p99 ${l.first.p99.toFixed(1).padStart(6)} ms\n`);
        }
      }
      // Rounds interleave the installations figure by figure, so that a load spike of the shared
      // host falls on both sides of a ratio.
      for (let round = 1; READS && round <= ROUNDS; round++) {
        process.stdout.write(`\n  round ${round} (load average ${loadAverage()})\n`);
        for (const name of Object.keys(LOADS) as LoadName[]) {
          for (const s of served) {
            const l = s.loads[name];
            const m = await load(s.api, l.token, l.requests);
            l.rounds.push(m);
            process.stdout.write(`    ${LOADS[name].padEnd(50)} ${s.label.padEnd(20)} ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50.toFixed(1).padStart(6)} ms  p99 ${m.p99.toFixed(1).padStart(6)} ms  API CPU ${(m.cpuMs * 1000).toFixed(0).padStart(5)} µs/req\n`);
          }
        }
        for (const s of served) process.stdout.write(`    API RSS ${s.label}: ${mb(s.api.memory().rss).toFixed(0)} MB\n`);
      }
      if (SEARCH) {
        const client = new TimedClient();
        try {
          for (let round = 1; round <= ROUNDS; round++) {
            for (const s of served) {
              s.searches.push(await searches(s.api, client, s.seeded));
              report(`search round ${round}: ${s.label}`, s.searches[s.searches.length - 1]);
            }
          }
        } finally {
          client.close();
        }
      }
    } finally {
      clearInterval(sampler);
    }
    for (const side of BASELINE_DIR ? ['Quire', 'baseline'] : ['Quire']) {
      const [one, many] = served.filter((s) => s.label.startsWith(side));
      process.stdout.write(`\n  ${side}: median of ${ROUNDS} rounds, ${SPACES} spaces vs 1 (load average ${loadAverage()})\n`);
      for (const name of READS ? (Object.keys(LOADS) as LoadName[]) : []) {
        const x = medianLoad(one.loads[name].rounds);
        const y = medianLoad(many.loads[name].rounds);
        const ratio = y.p99 / Math.max(x.p99, 0.1);
        line(`${LOADS[name]}: p50 ${x.p50.toFixed(1)} -> ${y.p50.toFixed(1)}, p99 ${x.p99.toFixed(1)} -> ${y.p99.toFixed(1)} ms`, ratio, 'x', ratio <= 1.2, '<= 1.2 x');
        const cpu = (rounds: Array<{ cpuMs: number }>) => percentile(rounds.map((r) => r.cpuMs), 0.5) * 1000;
        const [cx, cy] = [cpu(one.loads[name].rounds), cpu(many.loads[name].rounds)];
        line(`  API CPU per request: ${cx.toFixed(0)} -> ${cy.toFixed(0)} µs`, cy / Math.max(cx, 1), 'x', cy / Math.max(cx, 1) <= 1.2, '<= 1.2 x');
      }
      for (const name of READS ? (Object.keys(LOADS) as LoadName[]) : []) {
        const x = one.loads[name].first!;
        const y = many.loads[name].first!;
        const ratio = y.p99 / Math.max(x.p99, 0.1);
        line(`first reads, ${LOADS[name]}: p50 ${x.p50.toFixed(1)} -> ${y.p50.toFixed(1)}, p99 ${x.p99.toFixed(1)} -> ${y.p99.toFixed(1)} ms`, ratio, 'x', true, 'for comparison');
      }
      if (SEARCH) {
        const b = medianSearches(many.searches);
        line('space search p99', b.spaceSearch.p99, 'ms', b.spaceSearch.p99 < 30, '< 30 ms');
        line('org search p99', b.orgSearch.p99, 'ms', b.orgSearch.p99 < 60, '< 60 ms');
        line('  API CPU per space search', b.spaceSearch.apiCpuMs, 'ms', true, 'for comparison');
        line('  API CPU per org search', b.orgSearch.apiCpuMs, 'ms', true, 'for comparison');
      }
      const peak = many.api.memory().peakRss;
      line(`peak RSS of the API process serving ${SPACES} spaces (VmHWM; sampled ${mb(many.peakRss).toFixed(0)})`, mb(peak), 'MB', mb(peak) < 1024, '< 1024 MB');
      line(`peak RSS of the API process serving 1 space (VmHWM)`, mb(one.api.memory().peakRss), 'MB', true, 'for comparison');
    }
  } finally {
    for (const s of served) await s.api.stop();
    for (const { q, drop } of installations) {
      await q.close();
      await drop?.();
    }
  }
}

const mb = (bytes: number) => bytes / 2 ** 20;
const loadAverage = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/** Medians over rounds, each percentile on its own. */
function medianLoad(rounds: LoadFigures[]): LoadFigures {
  const med = (xs: number[]) => percentile(xs, 0.5);
  return { ...rounds[0], rps: med(rounds.map((r) => r.rps)), p50: med(rounds.map((r) => r.p50)), p99: med(rounds.map((r) => r.p99)) };
}

function medianSearches(rounds: Searches[]): Searches {
  const med = (xs: number[]) => percentile(xs, 0.5);
  const lat = (k: keyof Searches): Latency => ({
    p50: med(rounds.map((r) => r[k].p50)),
    p99: med(rounds.map((r) => r[k].p99)),
    perQuery: rounds[0][k].perQuery,
    apiCpuMs: med(rounds.map((r) => r[k].apiCpuMs)),
  });
  return { spaceSearch: lat('spaceSearch'), orgSearch: lat('orgSearch') };
}

/**
 * An installation of `spaces` spaces seeded by this process (its worker and projector). With
 * BENCH_GROWTH_DATA=<dir>, the first run keeps its database (named in
 * <dir>/<spaces>x<pages>/state.json, written last) and data dir (<dir>/<spaces>x<pages>/data);
 * later runs start on a copy of that database (CREATE DATABASE ... TEMPLATE, dropped at the end;
 * a projection whose version changed is rebuilt in the copy) and the same data dir.
 */
async function seededInstallation(spaces: number): Promise<{ q: TestQuire; seeded: Seeded; drop?: () => Promise<void> }> {
  const keep = KEEP ? join(KEEP, `${spaces}x${PAGES}`) : undefined;
  const statePath = keep && join(keep, 'state.json');
  if (statePath && existsSync(statePath)) {
    const seeded = JSON.parse(readFileSync(statePath, 'utf8')) as Seeded;
    const database = await createTestDatabase('quire_growth', { template: seeded.database });
    const t0 = performance.now();
    const q = await startTestQuire({}, { database, dataDir: seeded.dataDir });
    process.stdout.write(`  ${spaces} space(s) of ${PAGES} pages: a copy of ${seeded.database}, started in ${((performance.now() - t0) / 1000).toFixed(1)} s (rebuilds of changed projections included)\n`);
    return { q, seeded, drop: () => database.drop() };
  }
  const database = keep ? await createTestDatabase('quire_growth_seed') : undefined;
  const dataDir = keep ? join(keep, 'data') : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const q = await startTestQuire({}, { database, dataDir });
  const seeded = await seed(q, spaces);
  if (statePath && database && dataDir) {
    Object.assign(seeded, { database: database.name, dataDir });
    writeFileSync(statePath, JSON.stringify(seeded));
    process.stdout.write(`  seeded data kept: database ${database.name}, ${statePath}\n`);
  }
  return { q, seeded };
}

async function seed(q: TestQuire, spaces: number): Promise<Seeded> {
  const owner = await q.createUser('Growth owner');
  const reader = await q.createUser('Growth reader');
  const hostname = `growth-${Date.now()}`;
  const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Growth', hostname } })).body.id;
  await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'read' as any });
  const first = await seedSpace(q, owner.token, orgId, 0);
  const site = await q.http('POST', `/v1/orgs/${orgId}/sites`, { token: owner.token, body: { title: 'Growth', basename: 'growth', spaces: [first.spaceId] } });
  await q.http('POST', `/v1/orgs/${orgId}/sites/${site.body.id}/publish`, { token: owner.token });
  process.stdout.write(`  1 space of ${first.pages.length} pages seeded in ${first.ms} ms\n`);
  if (spaces > 1) {
    const started = performance.now();
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
    // Every space created first (each waits for its read models), then every import recorded
    // at once: the projector works through them in one go.
    const created = [];
    for (let i = 1; i < spaces; i++) created.push(await createSpace(q, owner.token, orgId, i));
    let position;
    for (const [i, space] of created.entries()) position = (await recordImport(q, space.id, space.revision, spaceFiles(i + 1))).position;
    if (position) await q.started.runtime.projector.waitFor(position, ['RevisionCreated', 'SpaceRevisionChanged'], 3_600_000);
    clearInterval(sampler);
    const counts = await q.started.runtime.db.query<{ pages: number; sections: number }>(
      `SELECT (SELECT count(*) FROM rm_search_pages)::int AS pages, (SELECT count(*) FROM rm_search_sections)::int AS sections`,
    );
    process.stdout.write(
      `  ${spaces - 1} more spaces seeded and projected in ${((performance.now() - started) / 1000).toFixed(0)} s (peak RSS of the seeding process ${mb(peakRss).toFixed(0)} MB): ${counts.rows[0].pages} pages, ${counts.rows[0].sections} sections indexed\n`,
    );
  }
  return { orgId, hostname, readerToken: reader.token, first: { spaceId: first.spaceId, pages: first.pages.map(({ id, path }) => ({ id, path })) } };
}

/** A space of PAGES generated pages (text seeded by its number), recorded as one import revision; waits for the projector. */
async function seedSpace(q: TestQuire, token: string, orgId: string, n: number) {
  const t0 = performance.now();
  const space = await createSpace(q, token, orgId, n);
  const { pages, position } = await recordImport(q, space.id, space.revision, spaceFiles(n));
  await q.started.runtime.projector.waitFor(position, ['RevisionCreated', 'SpaceRevisionChanged'], 600_000);
  return { spaceId: space.id, pages, ms: Math.round(performance.now() - t0) };
}

async function createSpace(q: TestQuire, token: string, orgId: string, n: number): Promise<{ id: string; revision: string }> {
  const created = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token, body: { title: `Growth ${n}` } });
  if (created.status !== 201) throw new Error(`create space: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.id, revision: created.body.revision };
}

const spaceFiles = (n: number) => generatedFiles({ pages: PAGES, sectionsPerPage: SECTIONS, seed: n + 1 });

/** The requests of each load, on the first space of the installation (the site token resolved once). */
async function loadsOf(url: string, seeded: Seeded, publishedUrl: string): Promise<Served['loads']> {
  const { readerToken: token } = seeded;
  const siteUrl = `${publishedUrl}/${seeded.hostname}/growth`;
  const { spaceId, pages } = seeded.first;
  const resolved = await fetch(`${url}/v1/urls/published`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${siteUrl}/${pages[1].path}` }) });
  if (resolved.status !== 200) throw new Error(`resolve: ${resolved.status} ${await resolved.text()}`);
  const siteToken: string = ((await resolved.json()) as { apiToken: string }).apiToken;
  const gets = (path: (p: { id: string; path: string }) => string) => pages.map((p) => ({ method: 'GET', path: path(p) }));
  return {
    markdown: { token, requests: gets((p) => `/v1/spaces/${spaceId}/content/path/${p.path}?format=markdown`), rounds: [] },
    document: { token, requests: gets((p) => `/v1/spaces/${spaceId}/content/path/${p.path}?format=document`), rounds: [] },
    siteResolve: {
      requests: pages.map((p) => ({ method: 'POST', path: '/v1/urls/published', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${siteUrl}/${p.path}` }) })),
      rounds: [],
    },
    sitePage: { token: siteToken, requests: gets((p) => `/v1/spaces/${spaceId}/content/page/${p.id}`), rounds: [] },
  };
}

/** Every request once, one at a time: p50 and p99 of their times. */
async function sequential(url: string, token: string | undefined, requests: BenchRequest[]): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (const r of requests) {
    const t0 = performance.now();
    const res = await fetch(url + r.path, { method: r.method ?? 'GET', headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...r.headers }, body: r.body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${r.method} ${r.path}: ${res.status}`);
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

async function searches(api: ApiProcess, client: TimedClient, seeded: Seeded): Promise<Searches> {
  const { orgId, readerToken: token } = seeded;
  const { spaceId } = seeded.first;
  return {
    spaceSearch: await latencies(api, client, token, (query) => `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`),
    orgSearch: await latencies(api, client, token, (query) => `/v1/orgs/${orgId}/search?query=${encodeURIComponent(query)}`),
  };
}

/**
 * Sequential requests, sent and timed by `client` (a process of its own, see TimedClient): each
 * query once to warm up, then ITERATIONS rounds of the mix.
 */
async function latencies(api: ApiProcess, client: TimedClient, token: string, path: (query: string) => string): Promise<Latency> {
  const request = (query: string) => ({ url: api.url + path(query), headers: { authorization: `Bearer ${token}` } });
  await client.times(SEARCHES.map(request));
  const mix = Array.from({ length: ITERATIONS }, () => SEARCHES).flat();
  const cpu0 = api.cpuMs();
  const samples = await client.times(mix.map(request));
  const apiCpuMs = (api.cpuMs() - cpu0) / samples.length;
  const byQuery = new Map<string, number[]>();
  mix.forEach((query, i) => byQuery.set(query, [...(byQuery.get(query) ?? []), samples[i]]));
  return { apiCpuMs, p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), perQuery: [...byQuery].map(([k, xs]) => [k, percentile(xs, 0.5)]) };
}

function report(label: string, f: Searches): void {
  process.stdout.write(`\n  ${label} (load average ${loadAverage()})\n`);
  for (const [name, m] of [
    ['space search', f.spaceSearch],
    ['org search', f.orgSearch],
  ] as const) {
    process.stdout.write(`    ${name.padEnd(50)} p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms  API CPU ${m.apiCpuMs.toFixed(2)} ms/req\n`);
    process.stdout.write(`      median per query (ms): ${m.perQuery.map(([k, ms]) => `${JSON.stringify(k)} ${ms.toFixed(1)}`).join(', ')}\n`);
  }
}

function line(label: string, value: number, unit: string, ok: boolean, target: string): void {
  process.stdout.write(`  ${label.padEnd(72)} ${value.toFixed(unit === 'x' ? 2 : 1).padStart(8)} ${unit}  (target ${target}: ${ok ? 'ok' : 'MISSED'})\n`);
}

/**
 * A load after a 2 s warm-up, with the API process's CPU time per request over the measured
 * seconds: on a shared host, latency swings with the neighbours' load, CPU per request far less.
 */
async function load(api: ApiProcess, token: string | undefined, requests: BenchRequest[]): Promise<LoadFigures & { cpuMs: number }> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const opts = { url: api.url, requests, headers, connections: CONNECTIONS, exactLatency: true };
  await measureLoad({ ...opts, seconds: 2 });
  const cpu0 = api.cpuMs();
  const r = await measureLoad({ ...opts, seconds: SECONDS });
  const cpuMs = (api.cpuMs() - cpu0) / Math.max(1, r.total ?? 0);
  if (r.non2xx || r.errors) process.stdout.write(`  !! ${r.non2xx} non-2xx responses, ${r.errors} errors\n`);
  return { ...r, cpuMs };
}
