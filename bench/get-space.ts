import { performance } from 'perf_hooks';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { compareWithBaseline, printComparison, SameBodyBaseline } from './support/same-body-baseline';

/**
 * `npm run bench -- get-space`: the whole system on a fresh database.
 * 1. GET /v1/spaces/{id} with a member's token, 32 connections for BENCH_SECONDS (10 s): req/s and
 *    p99, side by side with the same-body baseline (NestJS on Fastify answering Quire's recorded
 *    response), median of BENCH_ROUNDS (3) interleaved rounds. Target: >= 50% of the baseline's
 *    req/s, p99 within 3x.
 * 2. The permissions aggregate of a space in an organization of 10,000 members (written as events
 *    in bulk, then projected): time to the first page.
 * Target: first page < 50 ms.
 * autocannon runs in a worker thread (`workers: 1`) so the load generator does not share the
 * server's event loop; on a small machine they still share the CPU with PostgreSQL.
 */
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);

export async function run(): Promise<void> {
  const q = await startTestQuire();
  try {
    const owner = await q.createUser('Bench Owner');
    const reader = await q.createUser('Bench Reader');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Bench Org', hostname: `bench-${Date.now()}` } })).body.id;
    await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'read' as any });
    const { data: collection } = await owner.api.orgs.createCollection(orgId, { title: 'Bench collection' });
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Bench space', parent: collection.id });

    const requests = [{ path: `/v1/spaces/${space.id}` }];
    const headers = { authorization: `Bearer ${reader.token}` };
    const baseline = await SameBodyBaseline.record(q.url, requests, headers);
    try {
      printComparison('GET /v1/spaces/{id}, member token, 32 connections', await compareWithBaseline({ url: q.url, baseline, requests, headers }));
    } finally {
      await baseline.close();
    }

    const seeded = await seedMembers(q, orgId, MEMBERS);
    process.stdout.write(`  (${MEMBERS.toLocaleString('en-US')} members appended as events in ${seeded.appendMs} ms, projected in ${seeded.projectMs} ms)\n`);
    for (const limit of [100, 1000]) {
      const t = await timeAggregate(q, space.id, reader.token, limit);
      line(`aggregate of ${MEMBERS} members, limit ${limit}: first page (first call)`, t.first, 'ms', t.first < 50, '< 50');
      line(`aggregate of ${MEMBERS} members, limit ${limit}: first page (median of 20)`, t.median, 'ms', t.median < 50, '< 50');
      line(`aggregate of ${MEMBERS} members, limit ${limit}: page after the middle (median)`, t.laterMedian, 'ms');
    }
  } finally {
    await q.close();
  }
}

/** Users and memberships as events appended in bulk (1,000 per append), then waits for the projector. */
async function seedMembers(q: TestQuire, orgId: string, n: number) {
  const { store, executor } = q.started.runtime;
  const started = performance.now();
  const at = new Date().toISOString();
  const batch = 1000;
  const roles = ['read', 'comment', 'edit', 'review', 'create'];
  let orgVersion = (await store.readStream(`org-${orgId}`)).length;
  let position;
  for (let i = 0; i < n; i += batch) {
    const ids = Array.from({ length: Math.min(batch, n - i) }, (_, k) => `bench-user-${String(i + k).padStart(6, '0')}`);
    await store.append(
      `bench-users-${i}`,
      ids.map((userId) => ({ type: 'UserCreated', data: { userId, displayName: userId, email: `${userId}@example.com`, instanceAdmin: false, createdAt: at } })),
      'no_stream',
    );
    const r = await store.append(
      `org-${orgId}`,
      ids.map((userId, k) => ({ type: 'OrganizationMemberRoleSet', data: { organizationId: orgId, userId, role: roles[(i + k) % roles.length], at } })),
      orgVersion,
    );
    orgVersion = r.nextVersion;
    position = r.position;
  }
  const appended = performance.now();
  await executor.waitFor(position!, ['UserCreated', 'OrganizationMemberRoleSet']);
  return { appendMs: Math.round(appended - started), projectMs: Math.round(performance.now() - appended) };
}

async function timeAggregate(q: TestQuire, spaceId: string, token: string, limit: number) {
  const get = async (page?: string) => {
    const t0 = performance.now();
    const res = await fetch(`${q.url}/v1/spaces/${spaceId}/permissions/aggregate?limit=${limit}${page ? `&page=${page}` : ''}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body: any = await res.json();
    const ms = performance.now() - t0;
    if (res.status !== 200 || body.items.length !== limit) throw new Error(`aggregate: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    return { ms, next: body.next?.page as string | undefined };
  };
  const first = (await get()).ms;
  const firsts: number[] = [];
  for (let i = 0; i < 20; i++) firsts.push((await get()).ms);
  // A page in the middle of the list: walk there once, then time it.
  let page: string | undefined;
  for (let seen = 0; seen < MEMBERS / 2 && (page = (await get(page)).next); seen += limit);
  const laters: number[] = [];
  for (let i = 0; i < 20; i++) laters.push((await get(page)).ms);
  return { first, median: median(firsts), laterMedian: median(laters) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function line(label: string, value: number, unit: string, ok?: boolean, target?: string): void {
  const verdict = ok === undefined ? '' : `  (target ${target}: ${ok ? 'ok' : 'MISSED'})`;
  const shown = unit === 'ms' ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
  process.stdout.write(`${label.padEnd(66)} ${shown.padStart(9)} ${unit}${verdict}\n`);
}
