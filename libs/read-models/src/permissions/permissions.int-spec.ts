import { PgDb } from '@quire/platform/db/pg-db';
import { RecordedEvent } from '@quire/event-store/event-store.port';
import { liveTables, Projection } from '@quire/projections/projection';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { DefaultLevel, effectiveRole, Role, ROLES, decodeLevel, isRole } from '@quire/domain';
import { identityProjection } from '../identity/identity.projection';
import { spacesProjection } from '../spaces/spaces.projection';
import { collectionsProjection } from '../collections/collections.projection';
import { permissionsProjection } from './permissions.projection';
import { AccessQueries } from './permissions.queries';
import { SpaceQueries } from '../spaces/spaces.queries';
import { CollectionQueries } from '../collections/collections.queries';

const PROJECTIONS: Projection[] = [identityProjection, spacesProjection, collectionsProjection, permissionsProjection];
const LEVELS: DefaultLevel[] = ['inherit', 'inherit', 'inherit', null, ...ROLES];

/** A small deterministic PRNG so a failing seed can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * The SQL side (resolved levels kept by the projection, the aggregate, the lists) must agree
 * with `effectiveRole` from the domain on random trees of collections, levels and grants,
 * including level changes after the fact.
 */
describe('permissions read model agrees with the domain rule', () => {
  let database: TestDatabase;
  let db: PgDb;
  let position = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new PgDb(database.url);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const apply = async (type: string, data: unknown) => {
    const event = { id: `e${++position}`, streamId: 's', streamVersion: position, position: { commit: 0n, prepare: BigInt(position) }, type, schemaVersion: 1, data, metadata: {}, recordedAt: new Date() } as RecordedEvent;
    for (const p of PROJECTIONS) if (p.handles.includes(type)) await p.apply(event, db, liveTables);
  };

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}`, async () => {
      for (const p of PROJECTIONS) await db.exec(p.tables.map((t) => `DROP TABLE IF EXISTS ${t} CASCADE;`).join('\n') + p.schema(liveTables));
      const random = rng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
      const at = new Date().toISOString();
      const org = 'o1';
      const users = Array.from({ length: 10 }, (_, i) => `u${i}`);
      const orgRoles: Record<string, Role | null> = {};
      await apply('OrganizationCreated', { organizationId: org, title: 'Org', createdBy: 'u0', createdAt: at });
      for (const u of users) {
        await apply('UserCreated', { userId: u, displayName: u, email: `${u}@x.io`, instanceAdmin: false, createdAt: at });
        orgRoles[u] = random() < 0.25 ? null : pick(ROLES);
        if (orgRoles[u]) await apply('OrganizationMemberRoleSet', { organizationId: org, userId: u, role: orgRoles[u], at });
      }
      // Nodes: collections (parent among earlier collections or none), then spaces.
      const parent: Record<string, string | undefined> = {};
      const level: Record<string, DefaultLevel> = {};
      const grants: Record<string, Record<string, Role>> = {};
      const collections: string[] = [];
      for (let i = 0; i < 5; i++) {
        const id = `c${i}`;
        parent[id] = collections.length && random() < 0.7 ? pick(collections) : undefined;
        level[id] = pick(LEVELS);
        await apply('CollectionCreated', { collectionId: id, organizationId: org, parent: parent[id], title: id, defaultLevel: level[id], createdBy: 'u0', createdAt: at });
        collections.push(id);
      }
      const spaces: string[] = [];
      for (let i = 0; i < 6; i++) {
        const id = `s${i}`;
        parent[id] = random() < 0.8 ? pick(collections) : undefined;
        level[id] = pick(LEVELS);
        await apply('SpaceCreated', {
          spaceId: id, organizationId: org, parent: parent[id], title: id, editMode: 'live', defaultLevel: level[id],
          mergeRules: { type: 'inherit' }, initialRevision: `r${i}`, createdBy: 'u0', createdAt: new Date(Date.now() + i).toISOString(),
        });
        spaces.push(id);
      }
      const nodes = [...collections, ...spaces];
      for (let i = 0; i < 14; i++) {
        const node = pick(nodes);
        const user = pick(users);
        const role = random() < 0.2 ? null : pick(ROLES);
        const kind = node.startsWith('c') ? 'Collection' : 'Space';
        const key = kind === 'Collection' ? 'collectionId' : 'spaceId';
        grants[node] ??= {};
        if (role) {
          grants[node][user] = role;
          await apply(`${kind}UserPermissionSet`, { [key]: node, userId: user, role, at });
        } else {
          delete grants[node][user];
          await apply(`${kind}UserPermissionRemoved`, { [key]: node, userId: user, at });
        }
      }
      // Change some levels after the tree exists: the resolved levels below must follow.
      for (let i = 0; i < 4; i++) {
        const node = pick(nodes);
        level[node] = pick(LEVELS);
        const kind = node.startsWith('c') ? 'Collection' : 'Space';
        await apply(`${kind}Updated`, { [kind === 'Collection' ? 'collectionId' : 'spaceId']: node, changes: { defaultLevel: level[node] }, at });
      }

      const chain = (node: string) => {
        const out: string[] = [];
        for (let n: string | undefined = node; n; n = parent[n]) out.push(n);
        return out;
      };
      const expected = (node: string, user: string) =>
        effectiveRole({ organizationRole: orgRoles[user], levels: chain(node).map((n) => level[n]), grants: chain(node).map((n) => grants[n]?.[user]) });

      const access = new AccessQueries(db);
      const spaceQueries = new SpaceQueries(db);
      const collectionQueries = new CollectionQueries(db);
      for (const node of nodes) {
        const byAggregate: Record<string, Role> = {};
        let page: string | undefined;
        do {
          const r = await access.aggregate(node, { limit: 3, page });
          for (const item of r.items) byAggregate[item.user.id] = item.permission;
          page = r.next?.page;
        } while (page);
        for (const user of users) {
          const want = expected(node, user);
          const facts = node.startsWith('c') ? await access.collection(node, user) : await access.space(node, user);
          const got = effectiveRole({
            organizationRole: isRole(facts!.organization_role) ? facts!.organization_role : null,
            levels: [decodeLevel(facts!.resolved_level)],
            grants: [isRole(facts!.granted_role) ? facts!.granted_role : null],
          });
          expect({ node, user, role: got }).toEqual({ node, user, role: want });
          expect({ node, user, role: byAggregate[user] ?? null }).toEqual({ node, user, role: want });
        }
      }
      for (const user of users) {
        const visible = await spaceQueries.inOrganization(org, { userId: user, instanceAdmin: false }, { limit: 1000 });
        const want = spaces.map((s) => [s, expected(s, user)]).filter(([, r]) => r);
        expect(visible.items.map((v) => [v.space.id, v.role])).toEqual(want);
        const visibleCollections = await collectionQueries.inOrganization(org, { userId: user, instanceAdmin: false }, { limit: 1000, nested: true });
        expect(visibleCollections.items.map((v) => [v.collection.id, v.role])).toEqual(collections.map((c) => [c, expected(c, user)]).filter(([, r]) => r));
      }
    });
  }
});
