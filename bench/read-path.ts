// @ts-expect-error autocannon ships no type declarations
import autocannonUntyped from 'autocannon';
import { RevisionCreated, RevisionPageNode, spaceStream } from '@quire/domain';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { pageMarkdown, seedLargeSpace } from './merge';

/**
 * `npm run bench -- read-path`: GET .../content/path/{pagePath}?format=markdown on a 1,000-page
 * space, 32 connections for BENCH_SECONDS (10 s), cycling through all 1,000 page paths, with a
 * member's token: the change request's content (the change request looked up by number, then
 * its head revision's page), and the space's live content for comparison.
 * Targets: >= 2,000 req/s, p99 < 25 ms.
 *
 * Then the same pages read in a past revision (GET .../revisions/{revisionId}/path/{pagePath})
 * once the space has moved on by 100 revisions (each a commit changing one page, recorded as the
 * content side records it), side by side with the live read: live, past, live, past, each
 * BENCH_SECONDS, and the ratio of the totals. Target: the past read at least 80% of the live one.
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

    const past = await moveOn(q, spaceId, 100);
    const live = pages.map((p) => `/v1/spaces/${spaceId}/content/path/${p.path}?format=markdown`);
    const old = pages.map((p) => `/v1/spaces/${spaceId}/revisions/${past}/path/${p.path}?format=markdown`);
    const rounds = { live: [] as Awaited<ReturnType<typeof load>>[], past: [] as Awaited<ReturnType<typeof load>>[] };
    for (let round = 0; round < 2; round++) {
      rounds.live.push(await load(q, reader.token, live));
      rounds.past.push(await load(q, reader.token, old));
    }
    const total = (rs: Awaited<ReturnType<typeof load>>[]) => rs.reduce((sum, r) => sum + r.rps, 0) / rs.length;
    for (const [label, rs] of [['live revision', rounds.live], ['revision 100 revisions old', rounds.past]] as const) {
      line(`GET page by path, ${label}, 32 conn (mean of ${rs.length} runs): req/s`, total(rs), 'req/s');
      line(`GET page by path, ${label}: p99 latency (worst run)`, Math.max(...rs.map((r) => r.p99)), 'ms');
      for (const r of rs) if (r.non2xx || r.errors) process.stdout.write(`  !! ${r.non2xx} non-2xx responses, ${r.errors} errors\n`);
    }
    const ratio = total(rounds.past) / total(rounds.live);
    line('past revision / live throughput', ratio * 100, '%', ratio >= 0.8, '>= 80%');
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

/**
 * Moves the space on by `count` revisions, each a commit on the last changing one page's text,
 * recorded as RevisionCreated + SpaceRevisionChanged the way the content side records them (the
 * read path only cares that the read models hold every revision's pages). Answers the revision
 * that was live before: `count` revisions old.
 */
async function moveOn(q: TestQuire, spaceId: string, count: number): Promise<string> {
  const { store, executor, contentStore } = q.started.runtime;
  const recorded = await store.readStream(spaceStream(spaceId));
  const revisions = recorded.filter((e) => e.type === 'RevisionCreated').map((e) => (e as unknown as RevisionCreated).data);
  const start = revisions[revisions.length - 1];
  let head = start;
  let version = recorded[recorded.length - 1].streamVersion;
  const files = await contentStore.readRevisionFiles(spaceId, start.revision);
  const tree = Object.fromEntries(files.map((f) => [f.path, { oid: f.oid }])) as Record<string, { oid: string } | Uint8Array>;
  const sheets = flatten(start.pages).filter((p) => p.file && p.blob);
  const encoder = new TextEncoder();
  for (let i = 0; i < count; i++) {
    const page = sheets[(i * 7) % sheets.length];
    const text = `${pageMarkdown(page.title, 1, i)}\nRevision ${i + 1}.\n`;
    tree[page.file!] = encoder.encode(text);
    const revision = await contentStore.writeRevision({ spaceId, parents: [head.revision], files: tree, message: `Edit ${page.title}`, author: { name: 'bench', email: 'bench@localhost' }, timestamp: new Date() });
    tree[page.file!] = { oid: (await contentStore.readRevisionFiles(spaceId, revision)).find((f) => f.path === page.file)!.oid };
    const blob = (tree[page.file!] as { oid: string }).oid;
    const pages = structuredClone(head.pages);
    for (const p of flatten(pages)) if (p.id === page.id) p.blob = blob;
    const data: RevisionCreated['data'] = { ...head, revision, parents: [head.revision], kind: 'edits', pages, createdAt: new Date().toISOString() };
    const appended = await store.append(
      spaceStream(spaceId),
      [
        { type: 'RevisionCreated', data },
        { type: 'SpaceRevisionChanged', data: { spaceId, revision } },
      ],
      version,
    );
    version += 2;
    await contentStore.setLiveRevision(spaceId, revision);
    if (i === count - 1) await executor.waitFor(appended.position, ['RevisionCreated', 'SpaceRevisionChanged']);
    head = data;
  }
  return start.revision;
}

function flatten(pages: RevisionPageNode[]): RevisionPageNode[] {
  return pages.flatMap((p) => [p, ...flatten(p.children)]);
}

function line(label: string, value: number, unit: string, ok?: boolean, target?: string): void {
  const verdict = ok === undefined ? '' : `  (target ${target}: ${ok ? 'ok' : 'MISSED'})`;
  const shown = unit === 'ms' ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
  process.stdout.write(`${label.padEnd(78)} ${shown.padStart(9)} ${unit}${verdict}\n`);
}
