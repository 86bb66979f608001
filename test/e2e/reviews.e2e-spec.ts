import { ChangeRequestReviewStatus } from '@gitbook/api';
import { startTestQuire, TestQuire } from '../support/quire-app';

const { Approved, ChangesRequested } = ChangeRequestReviewStatus;

type User = Awaited<ReturnType<TestQuire['createUser']>>;

describe('change request reviews and merge rules (e2e, official client)', () => {
  let q: TestQuire;
  let owner: User;
  let reviewer: User;
  let editor: User;
  let reader: User;
  let outsider: User;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    [owner, reviewer, editor, reader, outsider] = await Promise.all(['Owner', 'Reviewer', 'Editor', 'Reader', 'Outsider'].map((n) => q.createUser(n)));
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Review Org' } })).body.id;
    for (const [user, role] of [[reviewer, 'review'], [editor, 'edit'], [reader, 'read']] as const) {
      expect((await q.http('PATCH', `/v1/orgs/${orgId}/members/${user.id}`, { token: owner.token, body: { role } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  /** A space with a change request by the editor that adds one page. */
  async function changeRequest(title: string) {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title } as any);
    const { data: cr } = await editor.api.spaces.createChangeRequest(space.id, { subject: `${title} CR` });
    await editor.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Page', document: { markdown: '# Page\n\nText.\n' } }] });
    const { data: fresh } = await editor.api.spaces.getChangeRequestById(space.id, cr.id);
    return { space, cr: fresh };
  }
  const crPath = (spaceId: string, crId: string) => `/v1/spaces/${spaceId}/change-requests/${crId}`;

  it('requests reviewers, lists them, and removes one (205, then 204)', async () => {
    const { space, cr } = await changeRequest('Requests');
    const { data: sent } = await editor.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.id, owner.id], subject: 'Please look' });
    expect(sent.users).toHaveLength(2);
    expect(sent.users![0]).toMatchObject({ object: 'change-request-requested-reviewer', kind: 'user', revision: cr.revision, requestedBy: { id: editor.id } });
    expect((await editor.api.spaces.getChangeRequestById(space.id, cr.id)).data.subject).toBe('Please look');

    // Users asked together come by id, one page at a time.
    const { data: list } = await reader.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id, { limit: 1 });
    expect(list.items).toHaveLength(1);
    const { data: rest } = await reader.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id, { page: list.next!.page });
    expect([...list.items, ...rest.items].map((r: any) => r.user.id)).toEqual([reviewer.id, owner.id].sort());
    expect(rest.next).toBeUndefined();

    // The space's change requests filtered by requested reviewer.
    const { data: awaiting } = await reviewer.api.spaces.listChangeRequestsForSpace(space.id, { requestedReviewer: reviewer.id, status: 'draft' } as any);
    expect(awaiting.items.map((c) => c.id)).toEqual([cr.id]);

    expect((await q.http('DELETE', `${crPath(space.id, cr.id)}/requested-reviewers/${owner.id}`, { token: editor.token })).status).toBe(205);
    expect((await q.http('DELETE', `${crPath(space.id, cr.id)}/requested-reviewers/${owner.id}`, { token: editor.token })).status).toBe(204);
    const { data: after } = await reader.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    expect(after.items.map((r: any) => r.user.id)).toEqual([reviewer.id]);
  });

  it('refuses reviewers who cannot review (400), unknown users (400), and callers without the right (403, 404)', async () => {
    const { space, cr } = await changeRequest('Bad reviewers');
    const request = (users: unknown, token = editor.token) => q.http('POST', `${crPath(space.id, cr.id)}/requested-reviewers`, { token, body: { users } });
    const noReview = await request([editor.id]);
    expect(noReview.status).toBe(400);
    expect(noReview.body.error.message).toMatch(/cannot review/);
    const unknown = await request(['nobody-here']);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/no user nobody-here/);
    expect((await request([])).status).toBe(400);
    expect((await q.http('POST', `${crPath(space.id, cr.id)}/requested-reviewers`, { token: editor.token, body: {} })).status).toBe(400);
    expect((await request([reviewer.id], reader.token)).status).toBe(403);
    expect((await request([reviewer.id], outsider.token)).status).toBe(404);
  });

  it('records reviews of the current revision, makes them outdated by a later edit, and lets only reviewers review', async () => {
    const { space, cr } = await changeRequest('Reviews');
    await editor.api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.id] });
    const created = await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'change-request-review',
      status: 'approved',
      revision: cr.revision,
      outdated: false,
      reviewer: { id: reviewer.id },
      requestedBy: { id: editor.id },
      urls: { location: `${q.config.publicUrl}${crPath(space.id, cr.id)}/reviews/${created.data.id}` },
    });
    const { data: one } = await reader.api.spaces.getChangeRequestReviewById(space.id, cr.id, created.data.id);
    expect(one).toEqual(created.data);

    // An edit after the approval: the review is outdated.
    await editor.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'More', document: { markdown: 'More.' } }] });
    const { data: afterEdit } = await reader.api.spaces.getChangeRequestReviewById(space.id, cr.id, created.data.id);
    expect(afterEdit.outdated).toBe(true);

    // The owner (admin) reviews the new head without being asked; the reviewer asks for changes.
    const { data: byOwner } = await owner.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    expect(byOwner).not.toHaveProperty('requestedBy');
    await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangesRequested });
    const { data: all } = await reader.api.spaces.getReviewsByChangeRequestId(space.id, cr.id);
    expect(all.items.map((r) => [r.reviewer.id, r.status, r.outdated])).toEqual([
      [reviewer.id, 'changes-requested', false],
      [owner.id, 'approved', false],
      [reviewer.id, 'approved', true],
    ]);
    const { data: current } = await reader.api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false, limit: 1 });
    expect(current.items).toHaveLength(1);
    const { data: next } = await reader.api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false, page: current.next!.page });
    expect(next.items.map((r) => r.reviewer.id)).toEqual([owner.id]);
    const { data: outdated } = await reader.api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: true });
    expect(outdated.items.map((r) => r.id)).toEqual([created.data.id]);

    const review = (token: string, body: unknown) => q.http('POST', `${crPath(space.id, cr.id)}/reviews`, { token, body });
    expect((await review(editor.token, { status: 'approved' })).status).toBe(403);
    expect((await review(reader.token, { status: 'approved' })).status).toBe(403);
    expect((await review(outsider.token, { status: 'approved' })).status).toBe(404);
    expect((await review(reviewer.token, {})).status).toBe(400);
    expect((await review(reviewer.token, { status: 'maybe' })).status).toBe(400);
    expect((await q.http('GET', `${crPath(space.id, cr.id)}/reviews/nope`, { token: reader.token })).status).toBe(404);
  });

  it('refuses merges that break review rules with a 422 naming the rule, applying nothing; allow_bypass lets its users merge', async () => {
    const { space, cr } = await changeRequest('Rules');
    await owner.api.spaces.updateSpaceById(space.id, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }, { rule: 'require_specific_reviewers', users: [reviewer.id] }] },
    } as any);
    const merge = (token: string) => q.http('POST', `${crPath(space.id, cr.id)}/merge`, { token });
    const refused = await merge(owner.token);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 422 });
    expect(refused.body.error.message).toMatch(/require_at_least_one_approved_review/);
    expect(refused.body.error.message).toMatch(/require_specific_reviewers/);
    const before = (await owner.api.spaces.getSpaceById(space.id)).data.revision;

    // The owner's approval meets the first rule only.
    await owner.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    const stillRefused = await merge(owner.token);
    expect(stillRefused.status).toBe(422);
    expect(stillRefused.body.error.message).not.toMatch(/require_at_least_one_approved_review/);
    expect(stillRefused.body.error.message).toMatch(/require_specific_reviewers/);
    expect((await owner.api.spaces.getSpaceById(space.id)).data.revision).toBe(before);
    expect((await owner.api.spaces.getChangeRequestById(space.id, cr.id)).data.status).not.toBe('merged');

    // The required reviewer approves, then an edit makes that approval outdated: refused again.
    await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    await editor.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Late', document: { markdown: 'Late.' } }] });
    expect((await merge(owner.token)).status).toBe(422);
    await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    await owner.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    const merged = await merge(reviewer.token);
    expect(merged.status).toBe(200);
    expect(merged.body.result).toBe('merge');

    // A review of a merged change request is refused.
    const late = await q.http('POST', `${crPath(space.id, cr.id)}/reviews`, { token: reviewer.token, body: { status: 'approved' } });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/merged/);
  });

  it('require_author_to_merge and allow_bypass', async () => {
    const { space, cr } = await changeRequest('Author');
    await owner.api.spaces.updateSpaceById(space.id, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_author_to_merge' }, { rule: 'require_all_reviews_approved' }, { rule: 'allow_bypass', users: [owner.id] }] },
    } as any);
    const { data: second } = await editor.api.spaces.createChangeRequest(space.id, { subject: 'Second' });
    await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: Approved });
    const byReviewer = await q.http('POST', `${crPath(space.id, cr.id)}/merge`, { token: reviewer.token });
    expect(byReviewer.status).toBe(422);
    expect(byReviewer.body.error.message).toMatch(/require_author_to_merge/);
    expect(byReviewer.body.error.message).not.toMatch(/require_all_reviews_approved/);
    // The editor is the author but may not merge (merging takes the review role): 403 before any rule.
    expect((await q.http('POST', `${crPath(space.id, cr.id)}/merge`, { token: editor.token })).status).toBe(403);
    // The owner bypasses every rule, without a review.
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    expect((await owner.api.spaces.mergeChangeRequest(space.id, second.id)).data.result).toBe('merge');
  });

  it('lists contributors: who edited the content and who commented, with counts', async () => {
    const { space, cr } = await changeRequest('Contributors');
    await editor.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Two', document: { markdown: 'Two.' } }] });
    const doc = { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hm', marks: [] }] }] }] } as any;
    const { data: comment } = await reviewer.api.spaces.postCommentInChangeRequest(space.id, cr.id, { body: doc });
    await owner.api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, comment.id, { body: doc });
    await reviewer.api.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangesRequested, comment: doc });

    const { data: contributors } = await reader.api.spaces.getContributorsByChangeRequestId(space.id, cr.id);
    const summary = contributors.items.map((c) => [c.user.id, c.actionType, c.count]).sort();
    expect(summary).toEqual([[editor.id, 'edit', 2], [owner.id, 'comment', 1], [reviewer.id, 'comment', 2]].sort());
    const first = await q.http('GET', `${crPath(space.id, cr.id)}/contributors?limit=2`, { token: reader.token });
    const second = await q.http('GET', `${crPath(space.id, cr.id)}/contributors?limit=2&page=${first.body.next.page}`, { token: reader.token });
    expect([...first.body.items, ...second.body.items].map((c: any) => [c.user.id, c.actionType, c.count]).sort()).toEqual(summary);
    expect((await q.http('GET', `${crPath(space.id, cr.id)}/contributors`, { token: outsider.token })).status).toBe(404);
  });

  it("lists an organization's change requests the caller can see, with GitBook's filters (awaiting my review included)", async () => {
    const { space: a, cr: crA } = await changeRequest('Org list A');
    const { space: b, cr: crB } = await changeRequest('Org list B');
    const { data: hidden } = await owner.api.orgs.createSpace(orgId, { title: 'Hidden' } as any);
    await owner.api.spaces.updateSpaceById(hidden.id, { defaultLevel: null } as any);
    const { data: crHidden } = await owner.api.spaces.createChangeRequest(hidden.id, { subject: 'Hidden CR' });
    await editor.api.spaces.updateChangeRequestById(a.id, crA.id, { status: 'open' } as any);
    await editor.api.spaces.requestReviewersForChangeRequest(b.id, crB.id, { users: [reviewer.id] });

    const ids = async (user: User, query: Record<string, string | string[]> = {}) => {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) for (const one of [v].flat()) qs.append(k, one);
      const r = await q.http('GET', `/v1/orgs/${orgId}/change-requests?${qs}`, { token: user.token });
      expect(r.status).toBe(200);
      return r.body.items.map((c: any) => c.id) as string[];
    };
    // Default: open ones only.
    expect(await ids(reader)).toContain(crA.id);
    expect(await ids(reader)).not.toContain(crB.id);
    expect(await ids(reader, { status: ['open', 'draft'], space: b.id })).toEqual([crB.id]);
    // Earlier tests asked the reviewer too, in other spaces of the organization.
    const awaiting = await ids(reviewer, { status: ['open', 'draft'], requestedReviewer: reviewer.id });
    expect(awaiting).toContain(crB.id);
    expect(awaiting).not.toContain(crA.id);
    expect(await ids(reader, { status: 'draft', creator: owner.id })).not.toContain(crB.id);
    expect(await ids(reader, { status: ['open', 'draft'], contributor: editor.id })).toEqual(expect.arrayContaining([crA.id, crB.id]));
    // A space the reader cannot read stays out; its owner sees it.
    expect(await ids(reader, { status: 'draft', space: hidden.id })).toEqual([]);
    expect(await ids(owner, { status: 'draft', space: hidden.id })).toEqual([crHidden.id]);
    expect(await ids(reader, { site: 'site-1' })).toEqual([]);

    const { data: page1 } = await reader.api.orgs.listChangeRequestsForOrganization(orgId, { status: ['open', 'draft'] as any, limit: 1, orderBy: 'createdAt' as any });
    expect(page1.items).toHaveLength(1);
    const { data: page2 } = await reader.api.orgs.listChangeRequestsForOrganization(orgId, { status: ['open', 'draft'] as any, limit: 1, orderBy: 'createdAt' as any, page: page1.next!.page });
    expect(page2.items[0].id).not.toBe(page1.items[0].id);
    expect((await q.http('GET', `/v1/orgs/${orgId}/change-requests`, { token: outsider.token })).status).toBe(404);
    expect((await q.http('GET', `/v1/orgs/${orgId}/change-requests?status=nope`, { token: reader.token })).status).toBe(400);
  });

  it("applies the organization's merge rules to spaces that inherit them; a space's own rules replace them", async () => {
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Org rules' } })).body.id;
    for (const [user, role] of [[reviewer, 'review'], [editor, 'edit']] as const) {
      expect((await q.http('PATCH', `/v1/orgs/${org}/members/${user.id}`, { token: owner.token, body: { role } })).status).toBe(200);
    }
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] };
    expect((await q.http('PATCH', `/v1/orgs/${org}`, { token: editor.token, body: { mergeRules: rules } })).status).toBe(403);
    expect((await q.http('PATCH', `/v1/orgs/${org}`, { token: owner.token, body: { mergeRules: { type: 'inherit' } } })).status).toBe(400);
    const { data: updated } = await owner.api.orgs.updateOrganizationById(org, { mergeRules: rules } as any);
    expect(updated.mergeRules).toEqual(rules);
    expect((await reviewer.api.orgs.getOrganizationById(org)).data.mergeRules).toEqual(rules);

    const { data: inheriting } = await owner.api.orgs.createSpace(org, { title: 'Inherits' } as any);
    const { data: own } = await owner.api.orgs.createSpace(org, { title: 'Own rules' } as any);
    await owner.api.spaces.updateSpaceById(own.id, { mergeRules: { type: 'none' } } as any);
    const crIn = (await editor.api.spaces.createChangeRequest(inheriting.id, { subject: 'In' })).data;
    const crOwn = (await editor.api.spaces.createChangeRequest(own.id, { subject: 'Own' })).data;
    for (const [space, cr] of [[inheriting, crIn], [own, crOwn]] as const) {
      await editor.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'P.' } }] });
    }

    const refused = await q.http('POST', `${crPath(inheriting.id, crIn.id)}/merge`, { token: owner.token });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/require_at_least_one_approved_review/);
    expect((await owner.api.spaces.mergeChangeRequest(own.id, crOwn.id)).data.result).toBe('merge');
    await reviewer.api.spaces.submitChangeRequestReview(inheriting.id, crIn.id, { status: Approved });
    expect((await owner.api.spaces.mergeChangeRequest(inheriting.id, crIn.id)).data.result).toBe('merge');
  });
});
