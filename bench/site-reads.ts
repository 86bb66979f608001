// @ts-expect-error autocannon ships no type declarations
import autocannonUntyped from 'autocannon';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { seedLargeSpace } from './merge';

/**
 * `npm run bench -- site-reads`: what GitBook's renderer does for every page of a 1,000-page
 * site, with BENCH_CONNECTIONS (8) connections for BENCH_SECONDS (10 s) each, cycling through
 * every page:
 *   - POST /v1/urls/published for the page's URL (no token): the site, site space, revision and a
 *     freshly signed site token;
 *   - the page's document read with that site token: GET .../revisions/{revision}/page/{pageId}/document
 *     when the installation has the revision reads, and GET .../content/page/{pageId} (the same
 *     document of the live revision) always.
 * Baselines in the same run: GET /v1/spaces/{spaceId} with a member's API token (the cheapest
 * authenticated read), and the same page reads with the member's token, so the ratios show
 * what resolving and the site token cost. Targets: p99 < 20 ms for URL resolution and page reads.
 */
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

interface Measured {
  rps: number;
  p50: number;
  p99: number;
}

export async function run(): Promise<void> {
  const q = await startTestQuire();
  try {
    const owner = await q.createUser('Site bench owner');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Site bench', hostname: 'site-bench' } })).body.id;
    const { spaceId, pages } = await seedLargeSpace(q, owner.token, orgId, 'Site bench');
    const site = await q.http('POST', `/v1/orgs/${orgId}/sites`, { token: owner.token, body: { title: 'Site bench', basename: 'bench', spaces: [spaceId] } });
    await q.http('POST', `/v1/orgs/${orgId}/sites/${site.body.id}/publish`, { token: owner.token });
    const siteUrl = `${q.config.publishedUrl}/site-bench/bench`;
    const resolved = await q.http('POST', '/v1/urls/published', { body: { url: `${siteUrl}/${pages[1].path}` } });
    if (resolved.status !== 200) throw new Error(`resolve: ${resolved.status} ${JSON.stringify(resolved.body)}`);
    const { apiToken, revision } = resolved.body;

    const baseline = await load(q, owner.token, [{ method: 'GET', path: `/v1/spaces/${spaceId}` }]);
    report('baseline: GET /v1/spaces/{spaceId}, API token', baseline);
    const resolving = await load(
      q,
      undefined,
      pages.map((p) => ({ method: 'POST', path: '/v1/urls/published', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${siteUrl}/${p.path}` }) })),
    );
    report('POST /v1/urls/published (resolve + sign a site token)', resolving, [baseline, 'baseline']);

    const reads: Array<[string, (pageId: string) => string]> = [['GET content/page/{pageId} (document)', (id) => `/v1/spaces/${spaceId}/content/page/${id}`]];
    const revisionRead = `/v1/spaces/${spaceId}/revisions/${revision}/page/${pages[1].id}/document`;
    if ((await q.http('GET', revisionRead, { token: apiToken })).status === 200) {
      reads.unshift(['GET revisions/{rev}/page/{pageId}/document', (id) => `/v1/spaces/${spaceId}/revisions/${revision}/page/${id}/document`]);
    } else {
      process.stdout.write('  (no revision reads on this installation: revisions/{rev}/page/{pageId}/document skipped)\n');
    }
    for (const [label, path] of reads) {
      const requests = pages.map((p) => ({ method: 'GET', path: path(p.id) }));
      const member = await load(q, owner.token, requests);
      report(`${label}, API token`, member, [baseline, 'baseline']);
      report(`${label}, site token`, await load(q, apiToken, requests), [member, 'API token']);
    }
  } finally {
    await q.close();
  }
}

async function load(q: TestQuire, token: string | undefined, requests: Array<Record<string, unknown>>): Promise<Measured> {
  const opts = { url: q.url, headers: token ? { authorization: `Bearer ${token}` } : {}, connections: CONNECTIONS, requests, workers: 1 };
  // Warm caches, JIT and the connection pool before measuring.
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration: SECONDS });
  if (r.non2xx || r.errors) process.stdout.write(`  !! ${r.non2xx} non-2xx responses, ${r.errors} errors\n`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

/** One line: throughput, latencies, the target, and the p99 as a ratio of another line's. */
function report(label: string, m: Measured, against?: [Measured, string]): void {
  const ratio = against ? `  p99 ${(m.p99 / Math.max(against[0].p99, 0.1)).toFixed(2)} x ${against[1]}` : '';
  const target = against ? `  (target p99 < 20 ms: ${m.p99 < 20 ? 'ok' : 'MISSED'})` : '';
  process.stdout.write(`${label.padEnd(62)} ${Math.round(m.rps).toString().padStart(6)} req/s  p50 ${m.p50.toFixed(1).padStart(5)} ms  p99 ${m.p99.toFixed(1).padStart(5)} ms${target}${ratio}\n`);
}
