import { RevisionCreated, RevisionPageNode, spaceStream } from '@quire/domain';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { pageMarkdown, seedLargeSpace } from './merge';
import { BenchRequest, compareWithBaseline, Comparison, measureLoad, median, printComparison, SameBodyBaseline } from './support/same-body-baseline';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * `npm run bench -- read-path`: page reads on a 1,000-page space with a member's token, 32
 * connections for BENCH_SECONDS (10 s), cycling through all 1,000 pages, each side by side with
 * the same-body baseline (NestJS on Fastify answering Quire's recorded responses), median of
 * BENCH_ROUNDS (3) interleaved rounds:
 *   - the change request's content by path as markdown (the change request looked up by number,
 *     then its head revision's page);
 *   - the space's live content by path as markdown;
 *   - the space's live content by page id as a document (GET .../content/page/{pageId});
 *   - the same pages in a past revision by path as markdown (GET .../revisions/{revisionId}/path/{pagePath})
 *     and by id as a document (GET .../revisions/{revisionId}/page/{pageId}) once the space has
 *     moved on by 100 revisions (each a commit changing one page, recorded as the content side
 *     records it).
 * Then each past read against the same live read, BENCH_ROUNDS interleaved rounds of BENCH_SECONDS.
 * Targets: >= 50% of the baseline's req/s, p99 within 3x; the past read at least 80% of the live one.
 */
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
    const past = await moveOn(q, spaceId, 100);

    const figures: Array<[string, BenchRequest[]]> = [
      ['GET change request content/path/{pagePath}?format=markdown', pages.map((p) => ({ path: `/v1/spaces/${spaceId}/change-requests/${cr.body.number}/content/path/${p.path}?format=markdown` }))],
      ['GET space content/path/{pagePath}?format=markdown (live)', pages.map((p) => ({ path: `/v1/spaces/${spaceId}/content/path/${p.path}?format=markdown` }))],
      ['GET space content/page/{pageId} (document, live)', pages.map((p) => ({ path: `/v1/spaces/${spaceId}/content/page/${p.id}` }))],
      ['GET revisions/{100 revisions old}/path/{pagePath}?format=markdown', pages.map((p) => ({ path: `/v1/spaces/${spaceId}/revisions/${past}/path/${p.path}?format=markdown` }))],
      ['GET revisions/{100 revisions old}/page/{pageId} (document)', pages.map((p) => ({ path: `/v1/spaces/${spaceId}/revisions/${past}/page/${p.id}` }))],
    ];
    for (const [label, requests] of figures) {
      const c = await compare(q, reader.token, requests);
      printComparison(`${label}, 32 connections`, c);
    }
    // The past revision against the live one, interleaved round by round (live first, then past,
    // then the other way round), so that both see the same load: the median of per-round ratios.
    const headers = { authorization: `Bearer ${reader.token}` };
    for (const [label, live, old] of [
      ['by path, markdown', figures[1][1], figures[3][1]],
      ['by id, document', figures[2][1], figures[4][1]],
    ] as const) {
      const ratios: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [live, old] : [old, live];
        const [first, second] = [await measureLoad({ url: q.url, requests: order[0], headers, connections: 32, seconds: SECONDS, warmup: 1 }), await measureLoad({ url: q.url, requests: order[1], headers, connections: 32, seconds: SECONDS, warmup: 1 })];
        const [l, o] = round % 2 === 0 ? [first, second] : [second, first];
        ratios.push(o.rps / l.rps);
        process.stdout.write(`  round ${round + 1}: live ${Math.round(l.rps)} req/s (p99 ${l.p99} ms), past ${Math.round(o.rps)} req/s (p99 ${o.p99} ms)\n`);
      }
      const ratio = median(ratios);
      line(`past revision / live throughput (${label}, median of ${ROUNDS} interleaved rounds)`, ratio * 100, '%', ratio >= 0.8, '>= 80%');
    }
  } finally {
    await q.close();
  }
}

async function compare(q: TestQuire, token: string, requests: BenchRequest[]): Promise<Comparison> {
  const headers = { authorization: `Bearer ${token}` };
  const baseline = await SameBodyBaseline.record(q.url, requests, headers);
  try {
    return await compareWithBaseline({ url: q.url, baseline, requests, headers });
  } finally {
    await baseline.close();
  }
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
