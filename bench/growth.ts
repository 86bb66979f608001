import { loadavg } from 'os';
import { performance } from 'perf_hooks';
import { generatedFiles } from '@quire/search/testing/search-fixtures';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { recordImport } from './merge';
import { SEARCHES } from './search';
import { BenchRequest, LoadFigures, measureLoad } from './support/same-body-baseline';

/**
 * `npm run bench -- growth`: how reads and search hold up as an organization grows, on the whole
 * system (API, worker, projector in this process) on a fresh database.
 * 1. One space of BENCH_PAGES (1,000) generated pages of BENCH_SECTIONS (4) sections, published
 *    as a site; then measured: GET content/path/{path} as markdown and as document (member's
 *    token), the published site page (POST /v1/urls/published, then the page's document with the
 *    site token), each with BENCH_CONNECTIONS (8) connections for BENCH_SECONDS (10 s) after a
 *    2 s warm-up, cycling through every page; space and org search over HTTP, one request at a time, a mix of queries
 *    (bench/search.ts's) BENCH_ITERATIONS (10) times after a warm-up pass.
 * 2. BENCH_SPACES - 1 (99) more spaces like it in the same organization (different text each),
 *    appended as events in bulk the way an import records them (no git import), projected.
 * 3. The same figures again, on the first space: the 1-space figures are the baseline of the
 *    same run. Targets: page and site reads p99 within 20% of the 1-space p99; space search
 *    p99 < 30 ms; org search p99 < 60 ms; RSS of the process (API, worker and projector
 *    together: an upper bound of the API's) < 1 GB while serving; the peak while seeding is printed too.
 * The host's load average is printed with each phase: the two phases cannot be interleaved.
 * A short run: BENCH_SPACES=10 BENCH_PAGES=200 BENCH_SECONDS=2.
 */
const SPACES = Number(process.env.BENCH_SPACES ?? 100);
const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const SECTIONS = Number(process.env.BENCH_SECTIONS ?? 4);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);


interface Figures {
  markdown: LoadFigures;
  document: LoadFigures;
  siteResolve: LoadFigures;
  sitePage: LoadFigures;
  spaceSearch: Latency;
  orgSearch: Latency;
}
interface Latency {
  p50: number;
  p99: number;
  perQuery: Array<[string, number]>;
}

export async function run(): Promise<void> {
  // Peak RSS while seeding (the bench's own generating and recording included) and while serving.
  const peak = { seeding: 0, serving: 0 };
  let phase: keyof typeof peak = 'seeding';
  const sampler = setInterval(() => (peak[phase] = Math.max(peak[phase], process.memoryUsage().rss)), 200);
  const q = await startTestQuire();
  try {
    const owner = await q.createUser('Growth owner');
    const reader = await q.createUser('Growth reader');
    const hostname = `growth-${Date.now()}`;
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Growth', hostname } })).body.id;
    await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'read' as any });
    const first = await seedSpace(q, owner.token, orgId, 0);
    const site = await q.http('POST', `/v1/orgs/${orgId}/sites`, { token: owner.token, body: { title: 'Growth', basename: 'growth', spaces: [first.spaceId] } });
    await q.http('POST', `/v1/orgs/${orgId}/sites/${site.body.id}/publish`, { token: owner.token });
    const siteUrl = `${q.config.publishedUrl}/${hostname}/growth`;
    process.stdout.write(`  1 space of ${first.pages.length} pages seeded in ${first.ms} ms\n`);

    phase = 'serving';
    const before = await measure(q, reader.token, orgId, first, siteUrl);
    report(`1 space`, before);

    phase = 'seeding';
    const started = performance.now();
    // Every space created first (each waits for its read models), then every import recorded
    // at once: the projector works through them in one go.
    const created = [];
    for (let i = 1; i < SPACES; i++) created.push(await createSpace(q, owner.token, orgId, i));
    let position;
    for (const [i, space] of created.entries()) position = (await recordImport(q, space.id, space.revision, spaceFiles(i + 1))).position;
    if (position) await q.started.runtime.projector.waitFor(position, ['RevisionCreated', 'SpaceRevisionChanged'], 3_600_000);
    const counts = await q.started.runtime.db.query<{ pages: number; sections: number }>(
      `SELECT (SELECT count(*) FROM rm_search_pages)::int AS pages, (SELECT count(*) FROM rm_search_sections)::int AS sections`,
    );
    process.stdout.write(
      `  ${SPACES - 1} more spaces seeded and projected in ${((performance.now() - started) / 1000).toFixed(0)} s: ${counts.rows[0].pages} pages, ${counts.rows[0].sections} sections indexed\n`,
    );

    phase = 'serving';
    const after = await measure(q, reader.token, orgId, first, siteUrl);
    report(`${SPACES} spaces`, after);

    process.stdout.write(`\n  figure (${SPACES} spaces vs 1, same run)\n`);
    const within = (label: string, a: LoadFigures, b: LoadFigures) => {
      const ratio = b.p99 / Math.max(a.p99, 0.1);
      line(`${label}: p99 ${a.p99.toFixed(1)} -> ${b.p99.toFixed(1)} ms`, ratio, 'x', ratio <= 1.2, '<= 1.2 x');
    };
    within('GET content/path/{path}?format=markdown', before.markdown, after.markdown);
    within('GET content/path/{path}?format=document', before.document, after.document);
    within('POST /v1/urls/published (site page URL)', before.siteResolve, after.siteResolve);
    within('GET content/page/{id} with the site token', before.sitePage, after.sitePage);
    line('space search p99', after.spaceSearch.p99, 'ms', after.spaceSearch.p99 < 30, '< 30 ms');
    line('org search p99', after.orgSearch.p99, 'ms', after.orgSearch.p99 < 60, '< 60 ms');
    const mb = (bytes: number) => bytes / 2 ** 20;
    line('peak RSS serving (API + worker + projector in one process)', mb(peak.serving), 'MB', mb(peak.serving) < 1024, '< 1024 MB');
    line('peak RSS seeding (the bench generating and recording pages too)', mb(peak.seeding), 'MB', mb(peak.seeding) < 1024, '< 1024 MB');
  } finally {
    clearInterval(sampler);
    await q.close();
  }
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

async function measure(q: TestQuire, token: string, orgId: string, space: { spaceId: string; pages: Array<{ id: string; path: string }> }, siteUrl: string): Promise<Figures> {
  const { spaceId, pages } = space;
  const resolved = await q.http('POST', '/v1/urls/published', { body: { url: `${siteUrl}/${pages[1].path}` } });
  if (resolved.status !== 200) throw new Error(`resolve: ${resolved.status} ${JSON.stringify(resolved.body)}`);
  const siteToken: string = resolved.body.apiToken;
  const gets = (path: (p: { id: string; path: string }) => string) => pages.map((p) => ({ method: 'GET', path: path(p) }));
  return {
    markdown: await load(q, token, gets((p) => `/v1/spaces/${spaceId}/content/path/${p.path}?format=markdown`)),
    document: await load(q, token, gets((p) => `/v1/spaces/${spaceId}/content/path/${p.path}?format=document`)),
    siteResolve: await load(
      q,
      undefined,
      pages.map((p) => ({ method: 'POST', path: '/v1/urls/published', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${siteUrl}/${p.path}` }) })),
    ),
    sitePage: await load(q, siteToken, gets((p) => `/v1/spaces/${spaceId}/content/page/${p.id}`)),
    spaceSearch: await latencies(q, token, (query) => `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`),
    orgSearch: await latencies(q, token, (query) => `/v1/orgs/${orgId}/search?query=${encodeURIComponent(query)}`),
  };
}

/** Sequential requests: each query once to warm up, then ITERATIONS rounds of the mix. */
async function latencies(q: TestQuire, token: string, path: (query: string) => string): Promise<Latency> {
  const get = async (query: string) => {
    const t0 = performance.now();
    const res = await fetch(q.url + path(query), { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`search ${query}: ${res.status}`);
    return performance.now() - t0;
  };
  for (const query of SEARCHES) await get(query);
  const samples: number[] = [];
  const byQuery = new Map<string, number[]>();
  for (let i = 0; i < ITERATIONS; i++) {
    for (const query of SEARCHES) {
      const ms = await get(query);
      samples.push(ms);
      byQuery.set(query, [...(byQuery.get(query) ?? []), ms]);
    }
  }
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), perQuery: [...byQuery].map(([k, xs]) => [k, percentile(xs, 0.5)]) };
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function report(label: string, f: Figures): void {
  process.stdout.write(`\n  ${label} (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})\n`);
  for (const [name, m] of [
    ['GET content/path/{path}?format=markdown', f.markdown],
    ['GET content/path/{path}?format=document', f.document],
    ['POST /v1/urls/published (site page URL)', f.siteResolve],
    ['GET content/page/{id} with the site token', f.sitePage],
  ] as const) {
    process.stdout.write(`    ${name.padEnd(50)} ${Math.round(m.rps).toString().padStart(6)} req/s  p99 ${m.p99.toFixed(1).padStart(6)} ms\n`);
  }
  for (const [name, m] of [
    ['space search', f.spaceSearch],
    ['org search', f.orgSearch],
  ] as const) {
    process.stdout.write(`    ${name.padEnd(50)} p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms\n`);
    process.stdout.write(`      median per query (ms): ${m.perQuery.map(([k, ms]) => `${JSON.stringify(k)} ${ms.toFixed(1)}`).join(', ')}\n`);
  }
}

function line(label: string, value: number, unit: string, ok: boolean, target: string): void {
  process.stdout.write(`  ${label.padEnd(72)} ${value.toFixed(unit === 'x' ? 2 : 1).padStart(8)} ${unit}  (target ${target}: ${ok ? 'ok' : 'MISSED'})\n`);
}

async function load(q: TestQuire, token: string | undefined, requests: BenchRequest[]): Promise<LoadFigures> {
  const r = await measureLoad({ url: q.url, requests, headers: token ? { authorization: `Bearer ${token}` } : {}, connections: CONNECTIONS, seconds: SECONDS, warmup: 2 });
  if (r.non2xx || r.errors) process.stdout.write(`  !! ${r.non2xx} non-2xx responses, ${r.errors} errors\n`);
  return r;
}
