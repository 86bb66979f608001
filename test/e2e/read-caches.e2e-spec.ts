import { setTimeout as sleep } from 'timers/promises';
import { LIVE_MS } from '@quire/projections/read-cache';
import type { Db } from '@quire/platform/db/db';
import { startApi, StartedApi } from '../../apps/api/src/bootstrap';
import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * Tokens and roles are cached in memory in every API process, evicted by the events that change
 * them (ReadCache). A cached permission that outlives a revoked role is a bug: each test warms the
 * cache, revokes, and reads at once, on the process that took the command and on another API
 * replica of the same installation (no projector of its own, as a scaled-out API runs).
 */
describe('read caches: a revoked role is refused at once (e2e)', () => {
  let q: TestQuire;
  let replica: StartedApi;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    replica = await startApi({ ...q.config, port: 0 }, { runProjections: false, redis: true });
    owner = await q.createUser('Cache Owner');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Cache Org' } })).body.id;
  });
  afterAll(async () => {
    await replica?.close();
    await q?.close();
  });

  const get = (url: string, path: string, token: string) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
  const patch = (url: string, path: string, token: string, body: unknown) =>
    fetch(`${url}${path}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
  const setOrgRole = async (userId: string, role: string | null) =>
    expect(await patch(q.url, `/v1/orgs/${orgId}/members/${userId}`, owner.token, { role })).toBe(200);
  const newSpace = async (title: string) => (await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title } })).body.id as string;

  for (const where of ['the same process', 'another API process'] as const) {
    const url = () => (where === 'the same process' ? q.url : replica.url);

    it(`${where}: a member removed from the organization cannot read the space on the next request`, async () => {
      const member = await q.createUser(`Removed member in ${where}`);
      const spaceId = await newSpace(`Removed (${where})`);
      await setOrgRole(member.id, 'read');
      for (let i = 0; i < 3; i++) expect(await get(url(), `/v1/spaces/${spaceId}`, member.token)).toBe(200);
      await setOrgRole(member.id, null);
      expect(await get(url(), `/v1/spaces/${spaceId}`, member.token)).toBe(404);
    });

    it(`${where}: an admin lowered to read is refused a space admin's change on the next request`, async () => {
      const member = await q.createUser(`Lowered admin in ${where}`);
      const spaceId = await newSpace(`Lowered (${where})`);
      await setOrgRole(member.id, 'admin');
      expect(await patch(url(), `/v1/spaces/${spaceId}`, member.token, { title: 'Renamed by an admin' })).toBe(200);
      expect(await get(url(), `/v1/spaces/${spaceId}`, member.token)).toBe(200);
      await setOrgRole(member.id, 'read');
      expect(await patch(url(), `/v1/spaces/${spaceId}`, member.token, { title: 'Renamed after the demotion' })).toBe(403);
      expect(await get(url(), `/v1/spaces/${spaceId}`, member.token)).toBe(200);
    });

    it(`${where}: a space grant removed is refused on the next request`, async () => {
      const guest = await q.createUser(`Guest in ${where}`);
      const spaceId = await newSpace(`Granted (${where})`);
      expect(await patch(q.url, `/v1/spaces/${spaceId}/permissions/users/${guest.id}`, owner.token, { role: 'read' })).toBe(204);
      for (let i = 0; i < 3; i++) expect(await get(url(), `/v1/spaces/${spaceId}`, guest.token)).toBe(200);
      const removed = await fetch(`${q.url}/v1/spaces/${spaceId}/permissions/users/${guest.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${owner.token}` } });
      expect(removed.status).toBe(205);
      expect(await get(url(), `/v1/spaces/${spaceId}`, guest.token)).toBe(404);
    });

    it(`${where}: a collection's grant removed is refused on the next request for the spaces below it`, async () => {
      const guest = await q.createUser(`Collection guest in ${where}`);
      const collection = await q.http('POST', `/v1/orgs/${orgId}/collections`, { token: owner.token, body: { title: `Collection (${where})` } });
      const space = await q.http('POST', `/v1/orgs/${orgId}/spaces`, { token: owner.token, body: { title: `Below (${where})`, parent: collection.body.id } });
      expect(await patch(q.url, `/v1/collections/${collection.body.id}/permissions/users/${guest.id}`, owner.token, { role: 'read' })).toBe(204);
      for (let i = 0; i < 3; i++) expect(await get(url(), `/v1/spaces/${space.body.id}`, guest.token)).toBe(200);
      const removed = await fetch(`${q.url}/v1/collections/${collection.body.id}/permissions/users/${guest.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${owner.token}` } });
      expect(removed.status).toBe(205);
      expect(await get(url(), `/v1/spaces/${space.body.id}`, guest.token)).toBe(404);
    });

    it(`${where}: page reads answered from cached bytes are refused once the member is removed`, async () => {
      const member = await q.createUser(`Page reader in ${where}`);
      const spaceId = await newSpace(`Page bytes (${where})`);
      await setOrgRole(member.id, 'read');
      const [page] = (await q.http('GET', `/v1/spaces/${spaceId}/content`, { token: owner.token })).body.pages;
      const revision = (await q.http('GET', `/v1/spaces/${spaceId}`, { token: owner.token })).body.revision;
      const reads = [
        `/v1/spaces/${spaceId}/content/page/${page.id}`,
        `/v1/spaces/${spaceId}/content/path/${page.path}?format=markdown`,
        `/v1/spaces/${spaceId}/revisions/${revision}/page/${page.id}`,
        `/v1/spaces/${spaceId}/revisions/${revision}/page/${page.id}/document`,
      ];
      for (let i = 0; i < 2; i++) for (const path of reads) expect([path, await get(url(), path, member.token)]).toEqual([path, 200]);
      await setOrgRole(member.id, null);
      for (const path of reads) expect([path, await get(url(), path, member.token)]).toEqual([path, 404]);
    });

    it(`${where}: GET space shows a role's change and a rename on the next request (its bytes go with the cached row)`, async () => {
      const member = await q.createUser(`Space bytes reader in ${where}`);
      const spaceId = await newSpace(`Space bytes (${where})`);
      await setOrgRole(member.id, 'admin');
      const read = async (): Promise<any> => (await fetch(`${url()}/v1/spaces/${spaceId}`, { headers: { authorization: `Bearer ${member.token}` } })).json();
      for (let i = 0; i < 3; i++) expect((await read()).permissions.admin).toBe(true);
      await setOrgRole(member.id, 'read');
      expect((await read()).permissions).toMatchObject({ view: true, admin: false, edit: false });
      expect(await patch(q.url, `/v1/spaces/${spaceId}`, owner.token, { title: 'Renamed while cached' })).toBe(200);
      expect(await read()).toMatchObject({ title: 'Renamed while cached', permissions: { admin: false } });
    });
  }

  it('another API process stalled past LIVE_MS (its pool starved) answers no cached role once a revoke has answered', async () => {
    const member = await q.createUser('Stalled reader');
    await setOrgRole(member.id, 'read');
    const spaceId = await newSpace('Stalled follower');
    const read = () => get(replica.url, `/v1/spaces/${spaceId}`, member.token);
    for (let i = 0; i < 3; i++) expect(await read()).toBe(200);
    // Every connection of the replica's pool taken, as by a burst of slow queries: its heartbeats
    // and evictions wait, and so does anything it reads from the database, not what it has cached.
    const giveBack = await starve(replica.runtime.db);
    let after: Promise<number> | undefined;
    try {
      await sleep(LIVE_MS + 1_500);
      // The replica is silent: the revoke answers without it (or times out), never waits for good.
      const revoked = setOrgRole(member.id, null);
      expect(await Promise.race([revoked.then(() => 'answered'), sleep(4 * LIVE_MS, 'neither', { ref: false })])).toBe('answered');
      after = read();
      const early = await Promise.race([after, sleep(1_000, 'waiting for its database', { ref: false })]);
      if (early !== 'waiting for its database') expect(early).toBe(404);
    } finally {
      giveBack();
    }
    expect(await after).toBe(404);
    // Fenced while stalled, it joined again with empty caches: they answer, and are evicted, as before.
    await setOrgRole(member.id, 'read');
    for (let i = 0; i < 3; i++) expect(await read()).toBe(200);
    await setOrgRole(member.id, null);
    expect(await read()).toBe(404);
  }, 90_000);

  it('a new token works at once on another API process, and an unknown one stays refused', async () => {
    const user = await q.createUser('Token holder');
    expect(await get(replica.url, '/v1/user', user.token)).toBe(200);
    expect(await get(replica.url, '/v1/user', `${user.token}x`)).toBe(401);
  });
});

/** Takes every free connection of a process's pool; the function returned gives them back. */
async function starve(db: Db): Promise<() => void> {
  const held: Array<{ release(): void }> = [];
  for (;;) {
    const next = db.acquireConnection();
    const got = await Promise.race([next, sleep(1_000, undefined, { ref: false })]);
    if (got) {
      held.push(got);
      continue;
    }
    return () => {
      for (const c of held) c.release();
      void next.then((c) => c.release());
    };
  }
}
