import { startTestQuire } from '../test/support/quire-app';
import { seedLargeSpace } from './merge';
import { BenchRequest, Comparison, compareWithBaseline, printComparison, SameBodyBaseline } from './support/same-body-baseline';

/**
 * `npm run bench -- site-reads`: what GitBook's renderer does for every page of a 1,000-page
 * site, with BENCH_CONNECTIONS (8) connections, cycling through every page:
 *   - POST /v1/urls/published for the page's URL (no token): the site, site space, revision and a
 *     freshly signed site token;
 *   - the page's document read with that site token (GET .../revisions/{rev}/page/{pageId}/document,
 *     the renderer's read), and the same read with a member's API token;
 *   - GET /v1/spaces/{spaceId} with the member's API token, the cheapest authenticated read.
 * Each figure is measured side by side with the same-body baseline (a NestJS-on-Fastify app
 * answering Quire's recorded responses: bench/support/same-body-baseline.ts) in BENCH_ROUNDS (3)
 * interleaved rounds of BENCH_SECONDS (10) s, medians. Targets: p99 < 20 ms for URL resolution
 * and the site token's page read (issue 16), and the read-path ratios of issue 20.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const TARGET_P99_MS = 20;

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

    const json = { 'content-type': 'application/json' };
    const documents = pages.map((p) => ({ path: `/v1/spaces/${spaceId}/revisions/${revision}/page/${p.id}/document` }));
    const figures: Array<[string, BenchRequest[], string | undefined, boolean]> = [
      ['GET /v1/spaces/{spaceId}, API token', [{ path: `/v1/spaces/${spaceId}` }], owner.token, false],
      ['POST /v1/urls/published (resolve + sign a site token)', pages.map((p) => ({ method: 'POST', path: '/v1/urls/published', headers: json, body: JSON.stringify({ url: `${siteUrl}/${p.path}` }) })), undefined, true],
      ['GET revisions/{rev}/page/{pageId}/document, site token', documents, apiToken, true],
      ['GET revisions/{rev}/page/{pageId}/document, API token', documents, owner.token, false],
    ];
    const measured: Comparison[] = [];
    for (const [label, requests, token, targeted] of figures) {
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const baseline = await SameBodyBaseline.record(q.url, requests, headers);
      try {
        const c = await compareWithBaseline({ url: q.url, baseline, requests, headers, connections: CONNECTIONS });
        printComparison(label, c);
        if (targeted) process.stdout.write(`  p99 ${c.quire.p99.toFixed(1)} ms (target < ${TARGET_P99_MS} ms: ${c.quire.p99 < TARGET_P99_MS ? 'ok' : 'MISSED'})\n`);
        measured.push(c);
      } finally {
        await baseline.close();
      }
    }
    const [, , siteToken, apiTokenRead] = measured;
    process.stdout.write(`page document: site token p99 / API token p99 = ${(siteToken.quire.p99 / Math.max(apiTokenRead.quire.p99, 1)).toFixed(2)}\n`);
  } finally {
    await q.close();
  }
}
