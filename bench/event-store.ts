import { randomUUID } from 'crypto';
import { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { rebuildProjection, rebuildProjections } from '@quire/projections/rebuild';
import { identityProjection } from '@quire/read-models/identity/identity.projection';
import { spacesProjection } from '@quire/read-models/spaces/spaces.projection';
import { collectionsProjection } from '@quire/read-models/collections/collections.projection';
import { permissionsProjection } from '@quire/read-models/permissions/permissions.projection';
import { changeRequestsProjection } from '@quire/read-models/change-requests/change-requests.projection';
import { liveTables, Projection } from '@quire/projections/projection';
import { NewEvent } from '@quire/event-store/event-store.port';
import { START } from '@quire/event-store/position';
import { createTestDatabase } from '../test/support/databases';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Domain events seeded for the replay figures (BENCH_REPLAY_EVENTS). */
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 20_000);
/** BENCH_ONLY=replay skips the append figures. */
const ONLY = process.env.BENCH_ONLY;

async function singleAppends(store: SqlEventStore, writers: number): Promise<number> {
  let n = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      let version = 0;
      const stream = `bench-single-${w}-${randomUUID()}`;
      while (Date.now() < until) {
        await store.append(stream, [{ type: 'Benched', data: { w, i: version } }], version === 0 ? 'no_stream' : version);
        version++;
        n++;
      }
    }),
  );
  return n / ((Date.now() - started) / 1000);
}

async function batchAppends(store: SqlEventStore, writers: number, batch: number): Promise<number> {
  let n = 0;
  const until = Date.now() + SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const stream = `bench-batch-${w}-${randomUUID()}`;
      let version = 0;
      while (Date.now() < until) {
        const events = Array.from({ length: batch }, (_, i) => ({ type: 'Benched', data: { w, i } }));
        await store.append(stream, events, version === 0 ? 'no_stream' : version);
        version += batch;
        n += batch;
      }
    }),
  );
  return n / ((Date.now() - started) / 1000);
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

/**
 * Rebuilds every replayed read model from zero and divides the events they handle by the time
 * it took. Events no replayed projection reads are not counted (the store holds none here).
 */
async function replayRate(db: Db, store: SqlEventStore, label: string): Promise<void> {
  for (const p of REPLAYED) {
    await db.exec(p.tables.map((t) => `DROP TABLE IF EXISTS ${t} CASCADE;`).join('\n') + p.schema(liveTables));
  }
  const seedStarted = Date.now();
  await seedDomainEvents(store, REPLAY_EVENTS);
  const handled = [...new Set(REPLAYED.flatMap((p) => p.handles))];
  const { n } = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM quire_events WHERE type = ANY($1::text[])`, [handled])).rows[0];
  process.stdout.write(`${label}: ${n.toLocaleString('en-US')} domain events seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);
  // Readers of $all see only transactions older than every one running in the cluster: a long
  // transaction elsewhere would hide the newest events, and the replay would end early.
  const visible = async () => (await store.readAll(START, 1_000_000)).length;
  for (let waited = 0; (await visible()) < n; waited++) {
    if (waited > 600) throw new Error('seeded events did not become visible to readers within a minute');
    await new Promise((r) => setTimeout(r, 100));
  }
  // As `npm run cli -- replay` does: one pass over the events for all of them.
  const started = Date.now();
  await rebuildProjections({ db, store, projections: REPLAYED });
  await expectRows(db);
  line(`${label}: replay into read models (${REPLAYED.length} projections)`, n / ((Date.now() - started) / 1000), 10000);
  // One read model at a time (a version bump at start rebuilds only the projections it changed).
  for (const p of [spacesProjection, identityProjection]) {
    const mine = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM quire_events WHERE type = ANY($1::text[])`, [p.handles])).rows[0].n;
    const one = Date.now();
    await rebuildProjection({ db, store, projection: p });
    line(`  ${label}: ${p.name} alone (${mine.toLocaleString('en-US')} of the events)`, mine / ((Date.now() - one) / 1000));
  }
}

function line(label: string, value: number, target?: number): void {
  const verdict = target === undefined ? '' : value >= target ? `  (target >= ${target}: ok)` : `  (target >= ${target}: BELOW)`;
  process.stdout.write(`${label.padEnd(52)} ${Math.round(value).toLocaleString('en-US').padStart(10)} events/s${verdict}\n`);
}

export async function run(): Promise<void> {
  if (ONLY !== 'replay') await appendFigures();
  // Replay runs in a database of its own: only the domain events the projections read.
  const replayDatabase = await createTestDatabase('quire_bench_replay');
  const replayPg = new PgDb(replayDatabase.url, { max: 20 });
  try {
    await replayRate(replayPg, await SqlEventStore.create(replayPg), 'PostgreSQL');
  } finally {
    await replayPg.close();
    await replayDatabase.drop();
  }
  const replayLite = await PgliteDb.open();
  try {
    await replayRate(replayLite, await SqlEventStore.create(replayLite), 'PGlite');
  } finally {
    await replayLite.close();
  }
}

async function appendFigures(): Promise<void> {
  const database = await createTestDatabase('quire_bench');
  const pg = new PgDb(database.url, { max: 20 });
  try {
    const store = await SqlEventStore.create(pg);
    line('PostgreSQL: single-event appends, 16 writers', await singleAppends(store, 16), 3000);
    line('PostgreSQL: 100-event batches, 4 writers', await batchAppends(store, 4, 100), 30000);
  } finally {
    await pg.close();
    await database.drop();
  }
  const lite = await PgliteDb.open();
  try {
    const store = await SqlEventStore.create(lite);
    line('PGlite: single-event appends, 16 writers', await singleAppends(store, 16));
    line('PGlite: 100-event batches, 4 writers', await batchAppends(store, 4, 100));
  } finally {
    await lite.close();
  }
}
