import { replay } from '../../apps/cli/src/replay/replay.command';
import { until } from '../chaos/chaos-support';
import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

/** Git imports and exports need a repository served over HTTP: the git-import and git-export
 * e2e cover their read models. */
const OPTIONAL_TABLES = new Set<string>(['rm_git_imports', 'rm_git_exports']);

const doc = (text: string) => ({ object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * Content for every other read model, through the HTTP API: nested collections with levels and
 * grants, spaces in them with settings and grants, change requests with content batches (pages
 * inserted, edited, deleted), merged, edited again after an update, archived; an integration.
 */
async function seedContent(q: TestQuire, users: User[], orgId: string): Promise<void> {
  const [owner, a, b] = users;
  // users[1..4] are members of org 0 (they joined it above as readers); give some more rights.
  const ok = async (res: Promise<{ status: number; body: any }>, status: number) => {
    const r = await res;
    expect({ status: r.status, body: r.body }).toMatchObject({ status });
    return r.body;
  };
  const call = (method: string, path: string, body?: unknown, token = owner.token) => q.http(method as any, path, { token, body });
  await ok(call('PATCH', `/v1/orgs/${orgId}/members/${a.id}`, { role: 'edit' }), 200);

  const top = await ok(call('POST', `/v1/orgs/${orgId}/collections`, { title: 'Top' }), 201);
  const inner = await ok(call('POST', `/v1/orgs/${orgId}/collections`, { title: 'Inner', parent: top.id }), 201);
  await ok(call('PATCH', `/v1/collections/${top.id}`, { description: 'Everything', defaultLevel: 'read' }), 200);
  await ok(call('POST', `/v1/collections/${inner.id}/permissions`, { role: 'review', users: [b.id] }), 204);

  const handbook = await ok(call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Handbook', parent: inner.id }), 201);
  const notes = await ok(call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Notes' }), 201);
  await ok(call('PATCH', `/v1/spaces/${handbook.id}`, { title: 'Handbook 2', defaultLevel: 'comment' }), 200);
  await ok(call('PATCH', `/v1/spaces/${notes.id}/permissions/users/${b.id}`, { role: 'edit' }), 204);
  await ok(call('PATCH', `/v1/collections/${inner.id}`, { defaultLevel: 'edit' }), 200);

  const content = (space: string, cr: string, changes: unknown[]) => ok(call('POST', `/v1/spaces/${space}/change-requests/${cr}/content`, { changes }), 200);
  const crPath = (space: string, cr?: string) => `/v1/spaces/${space}/change-requests${cr ? `/${cr}` : ''}`;

  // First change request: pages in, merged into the live space.
  const first = await ok(call('POST', crPath(handbook.id), { subject: 'Seed pages' }), 201);
  await content(handbook.id, first.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nStart here.\n\n## Install\n\nRun the installer.\n' } },
    { operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nQuestions and answers.\n' } },
  ]);
  await ok(call('PATCH', crPath(handbook.id, first.id), { status: 'open', subject: 'Seed the handbook' }), 200);
  expect((await ok(call('POST', `${crPath(handbook.id, first.id)}/merge`), 200)).result).toBe('merge');

  // Two more from the merged state: one merged after the other moved the space (update first).
  const second = await ok(call('POST', crPath(handbook.id), { subject: 'Edit the guide' }), 201);
  const third = await ok(call('POST', crPath(handbook.id), { subject: 'Add a page' }), 201);
  const revision = (await ok(call('GET', `/v1/spaces/${handbook.id}/content`), 200)) as { pages: Array<{ id: string; title: string }> };
  const guide = revision.pages.find((page) => page.title === 'Guide')!;
  const faq = revision.pages.find((page) => page.title === 'FAQ')!;
  await content(handbook.id, third.id, [
    { operation: 'insert_page', title: 'Changelog', document: { markdown: '# Changelog\n\n- 1.0: first\n' } },
    { operation: 'delete_page', page: faq.id },
  ]);
  expect((await ok(call('POST', `${crPath(handbook.id, third.id)}/merge`), 200)).result).toBe('merge');
  await content(handbook.id, second.id, [{ operation: 'update_page', page: guide.id, document: { markdown: '# Guide\n\nStart here, then read on.\n' } }]);
  await ok(call('POST', `${crPath(handbook.id, second.id)}/update`), 200);
  await ok(call('PATCH', crPath(handbook.id, second.id), { status: 'open' }), 200);

  // Review: reviewers asked (one taken off again), reviews of which an edit made one outdated.
  await ok(call('POST', `${crPath(handbook.id, second.id)}/requested-reviewers`, { users: [b.id, owner.id] }), 200);
  expect((await call('DELETE', `${crPath(handbook.id, second.id)}/requested-reviewers/${owner.id}`)).status).toBe(205);
  await ok(call('POST', `${crPath(handbook.id, second.id)}/reviews`, { status: 'changes-requested' }, b.token), 201);
  await content(handbook.id, second.id, [{ operation: 'update_page', page: guide.id, document: { markdown: '# Guide\n\nStart here, then read on. Reviewed.\n' } }]);
  await ok(call('POST', `${crPath(handbook.id, second.id)}/reviews`, { status: 'approved' }, b.token), 201);
  await ok(call('POST', `${crPath(handbook.id, second.id)}/reviews`, { status: 'approved' }), 201);
  await ok(call('POST', `${crPath(handbook.id, second.id)}/reviews`, { status: 'approved', comment: doc('Looks good') }, b.token), 201);

  // Comments: on the space (one on a page, resolved, one deleted, replies) and in a change request.
  const comments = `/v1/spaces/${handbook.id}/comments`;
  const onPage = await ok(call('POST', comments, { body: doc('On the guide'), page: guide.id, node: 'n1' }, b.token), 200);
  const reply = await ok(call('POST', `${comments}/${onPage.id}/replies`, { body: doc('Agreed') }), 200);
  await ok(call('POST', `${comments}/${onPage.id}/replies`, { body: doc('Me too') }, b.token), 200);
  await ok(call('PUT', `${comments}/${onPage.id}/replies/${reply.id}`, { body: doc('Agreed, edited') }), 200);
  await ok(call('PUT', `${comments}/${onPage.id}`, { resolved: true, body: doc('On the guide, edited') }, b.token), 200);
  const gone = await ok(call('POST', comments, { body: doc('Soon gone') }), 200);
  expect((await call('DELETE', `${comments}/${gone.id}`)).status).toBe(205);
  await ok(call('POST', comments, { body: doc('Still open') }, b.token), 200);
  await ok(call('POST', `${crPath(handbook.id, second.id)}/comments`, { body: doc('About this change') }), 200);
  // The organization's merge rules, which its inheriting spaces follow.
  await ok(call('PATCH', `/v1/orgs/${orgId}`, { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } }), 200);

  // One archived, on the other space.
  const stale = await ok(call('POST', crPath(notes.id), { subject: 'Abandoned' }), 201);
  await content(notes.id, stale.id, [{ operation: 'insert_page', title: 'Draft', document: { markdown: '# Draft\n\nNot yet.\n' } }]);
  await ok(call('PATCH', crPath(notes.id, stale.id), { status: 'archived' }), 200);

  await ok(
    call('POST', `/v1/integrations/replay-tools-${Date.now().toString(36)}`, {
      title: 'Replay Tools', description: 'Rebuilt like the rest', script: 'export default createIntegration({});', scopes: ['space:content:read'],
      organization: orgId, icon: PNG_1x1, previewImages: [PNG_1x1],
    }),
    200,
  );

  // A site: two site spaces (one moved and hidden), published, shared by link, with a redirect.
  const site = await ok(call('POST', `/v1/orgs/${orgId}/sites`, { title: 'Replay Docs', visibility: 'share-link', spaces: [handbook.id, notes.id] }), 201);
  const siteSpaces = (await ok(call('GET', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces`), 200)).items as Array<{ id: string }>;
  await ok(call('PATCH', `/v1/orgs/${orgId}/sites/${site.id}/site-spaces/${siteSpaces[1].id}`, { path: 'notes', hidden: true }), 200);
  await ok(call('POST', `/v1/orgs/${orgId}/sites/${site.id}/share-links`, { name: 'Partners' }), 201);
  await ok(call('POST', `/v1/orgs/${orgId}/sites/${site.id}/redirects`, { source: '/old/*', destination: { kind: 'site-space', siteSpaceId: siteSpaces[0].id } }), 201);
  await ok(call('POST', `/v1/orgs/${orgId}/sites/${site.id}/publish`), 200);
}

/** Rows of every read model, once every projection has taken in every event so far. */
async function snapshot(q: TestQuire): Promise<Record<string, unknown[]>> {
  await until('every projection to catch up', async () => (await q.started.runtime.projector.lag()).behind === 0, 30_000);
  const out: Record<string, unknown[]> = {};
  for (const p of q.started.runtime.projector.projections) {
    for (const table of p.tables) {
      const r = await q.started.runtime.db.query(`SELECT * FROM ${table}`);
      out[table] = r.rows.map((row) => JSON.stringify(row)).sort();
    }
  }
  return out;
}

describe('replay (e2e)', () => {
  let q: TestQuire;
  beforeAll(async () => {
    q = await startTestQuire({ secretKey: 'replay-secret-key-for-site-share-links' });
  });
  afterAll(async () => {
    await q?.close();
  });

  it('rebuilds every read model from the events into tables equal to the live ones, row for row, while the API serves', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => q.createUser(`Replay ${i}`)));
    const orgIds: string[] = [];
    for (const [i, u] of users.entries()) {
      const org = await q.http('POST', '/v1/orgs', { token: u.token, body: { title: `Org ${i}`, hostname: `replay-${i}-${Date.now()}` } });
      expect(org.status).toBe(201);
      orgIds.push(org.body.id);
      for (const other of users.slice(0, i)) {
        expect((await q.http('PATCH', `/v1/orgs/${org.body.id}/members/${other.id}`, { token: u.token, body: { role: 'read' } })).status).toBe(200);
      }
    }
    // Custom hostnames: set, moved to another, removed.
    const setHost = async (i: number, customHostname: string | null) =>
      expect((await q.http('PATCH', `/v1/orgs/${orgIds[i]}`, { token: users[i].token, body: { customHostname } })).status).toBe(200);
    await setHost(0, 'docs.replay-0.example.com');
    await setHost(1, 'docs.replay-1.example.com');
    await setHost(1, 'help.replay-1.example.com');
    await setHost(2, 'docs.replay-1.example.com');
    await setHost(3, 'docs.replay-3.example.com');
    await setHost(3, null);

    await seedContent(q, users, orgIds[0]);

    const before = await snapshot(q);
    expect(before.rm_users.length).toBeGreaterThan(5);
    expect(before.rm_organizations.filter((row) => JSON.parse(row as string).custom_hostname !== null)).toHaveLength(3);
    // Every read model has rows to compare, not empty with empty.
    const empty = Object.keys(before).filter((table) => before[table].length === 0 && !OPTIONAL_TABLES.has(table));
    expect(empty).toEqual([]);
    const rows = (table: string) => before[table].map((r) => JSON.parse(r as string));
    expect(rows('rm_change_requests').map((r) => r.status).sort()).toEqual(['archived', 'merged', 'merged', 'open']);
    expect(rows('rm_collections').some((r) => r.depth === 2)).toBe(true);
    expect(rows('rm_change_request_reviews').map((r) => [r.status, r.superseded]).sort()).toEqual([['approved', false], ['approved', true], ['approved', false], ['changes-requested', true]].sort());
    // Open comments: the handbook's one still open; the change request's own and its review's.
    expect(rows('rm_spaces').map((r) => r.comments).filter((n) => n !== 0)).toEqual([1]);
    expect(rows('rm_change_requests').map((r) => r.comments).filter((n) => n !== 0)).toEqual([2]);
    expect(rows('rm_comment_replies')).toHaveLength(2);
    expect(rows('rm_organizations').filter((r) => r.merge_rules.type === 'rules')).toHaveLength(1);
    expect(rows('rm_change_request_contributors').map((r) => r.action_type).sort()).toEqual(expect.arrayContaining(['comment', 'edit']));
    expect(rows('rm_change_requests').find((r) => r.requested_reviewers.length > 0)?.requested_reviewers).toHaveLength(1);
    expect(rows('rm_access_nodes').some((r) => r.kind === 'space' && r.chain.length === 3)).toBe(true);

    const chunks: string[] = [];
    const out = { write: (s: string) => chunks.push(s) } as any;
    const replaying = replay(q.started.runtime, [], out);
    // Reads keep working during the rebuild.
    const during = await q.http('GET', '/v1/user', { token: users[0].token });
    expect(during.status).toBe(200);
    await replaying;

    expect(await snapshot(q)).toEqual(before);
    expect(chunks.join('')).toMatch(/identity: rebuilt from \d+ events/);
    // Writes after the swap still land in the live tables.
    const late = await q.createUser('After replay');
    expect((await q.http('GET', `/v1/users/${late.id}`, { token: late.token })).status).toBe(200);
  });

  it('rejects unknown projection names', async () => {
    await expect(replay(q.started.runtime, ['nope'], { write: () => true } as any)).rejects.toThrow(/Unknown projection/);
  });
});
