// @ts-expect-error autocannon ships no type declarations
import autocannonUntyped from 'autocannon';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { seedLargeSpace } from './merge';

/**
 * `npm run bench -- read-path`: GET .../content/path/{pagePath}?format=markdown on a 1,000-page
 * space, 32 connections for BENCH_SECONDS (10 s), cycling through all 1,000 page paths, with a
 * member's token: the change request's content (the change request looked up by number, then
 * its head revision's page), and the space's live content for comparison.
 * Targets: >= 2,000 req/s, p99 < 25 ms.
 */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function run(): Promise<void> {
  const q = await startTestQuire();
  try {
    const owner = await q.createUser('Read bench owner');
    const reader = await q.createUser('Read bench reader');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Read bench' } })).body.id;
    await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'read' as any });
    const { spaceId, pages } = await seedLargeSpace(q, owner.token, orgId, 'Read bench');
    const cr = await q.http('POST', `/v1/spaces/${spaceId}/change-requests`, { token: owner.token, body: { subject: 'Bench' } });
    const edit = await q.http('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      token: owner.token,
      body: { changes: [{ operation: 'update_page', page: pages[10].id, document: { markdown: '# Changed\n\nIn the change request.\n' } }] },
    });
    if (edit.status !== 200) throw new Error(`edit: ${edit.status} ${JSON.stringify(edit.body)}`);

    for (const [label, prefix] of [
      ['change request', `/v1/spaces/${spaceId}/change-requests/${cr.body.number}/content/path/`],
      ['space', `/v1/spaces/${spaceId}/content/path/`],
    ] as const) {
      const r = await load(q, reader.token, pages.map((p) => `${prefix}${p.path}?format=markdown`));
      line(`GET ${label} content/path/{pagePath}?format=markdown, 32 conn: req/s`, r.rps, 'req/s', r.rps >= 2000, '>= 2000');
      line(`GET ${label} content/path/{pagePath}?format=markdown: p99 latency`, r.p99, 'ms', r.p99 < 25, '< 25');
      line(`GET ${label} content/path/{pagePath}?format=markdown: p50 latency`, r.p50, 'ms');
      if (r.non2xx || r.errors) process.stdout.write(`  !! ${r.non2xx} non-2xx responses, ${r.errors} errors\n`);
    }
  } finally {
    await q.close();
  }
}

async function load(q: TestQuire, token: string, paths: string[]) {
  const requests = paths.map((path) => ({ method: 'GET', path }));
  const opts = { url: q.url, headers: { authorization: `Bearer ${token}` }, connections: 32, requests, workers: 1 };
  // Warm the token cache, JIT and connection pool before measuring.
  await autocannon({ ...opts, duration: 2 });
  const r = await autocannon({ ...opts, duration: SECONDS });
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50, non2xx: r.non2xx, errors: r.errors };
}

function line(label: string, value: number, unit: string, ok?: boolean, target?: string): void {
  const verdict = ok === undefined ? '' : `  (target ${target}: ${ok ? 'ok' : 'MISSED'})`;
  const shown = unit === 'ms' ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
  process.stdout.write(`${label.padEnd(78)} ${shown.padStart(9)} ${unit}${verdict}\n`);
}
