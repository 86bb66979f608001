import { ChangeRequestReviewStatus } from '@gitbook/api';
import { until } from '../chaos/chaos-support';
import { startTestQuire, TestQuire } from '../support/quire-app';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

const doc = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});
const textOf = (body: any): string => JSON.stringify(body).match(/"text":"([^"]*)"/)?.[1] ?? '';

describe('comments and replies (e2e, official client)', () => {
  let q: TestQuire;
  let owner: User;
  let commenter: User;
  let other: User;
  let reader: User;
  let outsider: User;
  let orgId: string;
  let spaceId: string;
  let pageId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    [owner, commenter, other, reader, outsider] = await Promise.all(['Owner', 'Commenter', 'Other', 'Reader', 'Outsider'].map((n) => q.createUser(n)));
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Comment Org' } })).body.id;
    for (const [user, role] of [[commenter, 'comment'], [other, 'review'], [reader, 'read']] as const) {
      expect((await q.http('PATCH', `/v1/orgs/${orgId}/members/${user.id}`, { token: owner.token, body: { role } })).status).toBe(200);
    }
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Commented' } as any);
    spaceId = space.id;
    const { data: cr } = await owner.api.spaces.createChangeRequest(spaceId, { subject: 'seed' });
    await owner.api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nText.\n' } }] });
    await owner.api.spaces.mergeChangeRequest(spaceId, cr.id);
    const { data: revision } = await owner.api.spaces.getCurrentRevision(spaceId);
    pageId = (revision.pages as any[]).find((p) => p.title === 'Guide').id;
  });
  afterAll(async () => {
    await q?.close();
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  const spaceComments = () => `/v1/spaces/${spaceId}/comments`;
  const openComments = async () => (await owner.api.spaces.getSpaceById(spaceId)).data.comments;

  it('posts comments on the space, anchored to a page and node or not, and counts the open ones on the space', async () => {
    const before = await openComments();
    const { data: live } = await owner.api.spaces.getSpaceById(spaceId);
    const { data: anchored } = await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('On the guide') as any, page: pageId, node: 'block-1' });
    expect(anchored).toMatchObject({
      object: 'comment',
      status: 'open',
      postedBy: { id: commenter.id },
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: spaceId, revision: live.revision, page: { id: pageId }, node: { id: 'block-1' } },
      urls: { location: `${q.config.publicUrl}/v1/spaces/${spaceId}/comments/${anchored.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(textOf(anchored.body)).toBe('On the guide');
    const { data: loose } = await other.api.spaces.postCommentInSpace(spaceId, { body: doc('In general') as any });
    expect(loose.target).not.toHaveProperty('page');
    expect(await openComments()).toBe(before + 2);

    // Seen by a reader, with what a reader may do.
    const { data: seen } = await reader.api.spaces.getCommentInSpace(spaceId, anchored.id);
    expect(seen.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });

    // Lists: newest first by default, oldest first with order=asc, filtered by page and author, paginated.
    const { data: all } = await reader.api.spaces.listCommentsInSpace(spaceId);
    expect(all.items.slice(0, 2).map((c) => c.id)).toEqual([loose.id, anchored.id]);
    const { data: asc } = await reader.api.spaces.listCommentsInSpace(spaceId, { order: 'asc' as any, limit: 1 });
    const { data: ascNext } = await reader.api.spaces.listCommentsInSpace(spaceId, { order: 'asc' as any, limit: 1, page: asc.next!.page });
    expect([asc.items[0].id, ascNext.items[0].id]).toEqual([...all.items].reverse().slice(0, 2).map((c) => c.id));
    const { data: onPage } = await reader.api.spaces.listCommentsInSpace(spaceId, { targetPage: pageId });
    expect(onPage.items.every((c) => (c.target as any).page?.id === pageId)).toBe(true);
    expect(onPage.items.map((c) => c.id)).toContain(anchored.id);
    const byAuthor = await q.http('GET', `${spaceComments()}?authors=${other.id}`, { token: reader.token });
    expect(byAuthor.body.items.map((c: any) => c.postedBy.id)).toEqual(byAuthor.body.items.map(() => other.id));
    expect(byAuthor.body.items.map((c: any) => c.id)).toContain(loose.id);
  });

  it('resolves and reopens (anyone who comments), edits (the author only), and moves the counter', async () => {
    const { data: comment } = await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('Resolve me') as any });
    const before = await openComments();
    const { data: resolved } = await other.api.spaces.updateCommentInSpace(spaceId, comment.id, { resolved: true });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: other.id } });
    expect(await openComments()).toBe(before - 1);
    const { data: open } = await commenter.api.spaces.listCommentsInSpace(spaceId, { status: 'resolved' as any });
    expect(open.items.map((c) => c.id)).toContain(comment.id);
    const { data: reopened } = await commenter.api.spaces.updateCommentInSpace(spaceId, comment.id, { resolved: false });
    expect(reopened.status).toBe('open');
    expect(await openComments()).toBe(before);

    const { data: edited } = await commenter.api.spaces.updateCommentInSpace(spaceId, comment.id, { body: doc('Edited') as any });
    expect(textOf(edited.body)).toBe('Edited');
    expect(edited.editedAt).toBeDefined();
    const put = (token: string, body: unknown) => q.http('PUT', `${spaceComments()}/${comment.id}`, { token, body });
    expect((await put(owner.token, { body: doc('Not mine') })).status).toBe(403);
    expect((await put(reader.token, { resolved: true })).status).toBe(403);
    expect((await put(outsider.token, { resolved: true })).status).toBe(404);
    expect((await put(commenter.token, {})).status).toBe(400);
    const reactions = await put(commenter.token, { addedReactions: ['👍'] });
    expect(reactions.status).toBe(400);
    expect(reactions.body.error.message).toMatch(/reactions/);
  });

  it('threads replies, counted with their repliers; only authors edit; authors and admins delete (205, then 204)', async () => {
    const { data: comment } = await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('Thread') as any });
    const { data: first } = await other.api.spaces.postCommentReplyInSpace(spaceId, comment.id, { body: doc('First reply') as any });
    expect(first).toMatchObject({ object: 'comment-reply', postedBy: { id: other.id }, reactions: [], urls: { location: `${q.config.publicUrl}${spaceComments()}/${comment.id}/replies/${first.id}` } });
    await other.api.spaces.postCommentReplyInSpace(spaceId, comment.id, { body: doc('Second reply') as any });
    const { data: third } = await commenter.api.spaces.postCommentReplyInSpace(spaceId, comment.id, { body: doc('Third reply') as any });
    const { data: withReplies } = await reader.api.spaces.getCommentInSpace(spaceId, comment.id);
    expect(withReplies.replies).toBe(3);
    expect(withReplies.repliers.map((r) => [r.user.id, r.count])).toEqual([[other.id, 2], [commenter.id, 1]]);

    const { data: page1 } = await reader.api.spaces.listCommentRepliesInSpace(spaceId, comment.id, { limit: 2 });
    const { data: page2 } = await reader.api.spaces.listCommentRepliesInSpace(spaceId, comment.id, { limit: 2, page: page1.next!.page });
    expect([...page1.items, ...page2.items].map((r) => textOf(r.body))).toEqual(['First reply', 'Second reply', 'Third reply']);
    expect((await reader.api.spaces.getCommentReplyInSpace(spaceId, comment.id, first.id)).data.id).toBe(first.id);

    const replyPath = (id: string) => `${spaceComments()}/${comment.id}/replies/${id}`;
    expect((await q.http('PUT', replyPath(first.id), { token: commenter.token, body: { body: doc('Not mine') } })).status).toBe(403);
    const { data: edited } = await other.api.spaces.updateCommentReplyInSpace(spaceId, comment.id, first.id, { body: doc('First, edited') as any });
    expect(textOf(edited.body)).toBe('First, edited');
    expect((await q.http('POST', `${spaceComments()}/${comment.id}/replies`, { token: reader.token, body: { body: doc('No') } })).status).toBe(403);

    expect((await q.http('DELETE', replyPath(first.id), { token: commenter.token })).status).toBe(403);
    expect((await q.http('DELETE', replyPath(first.id), { token: owner.token })).status).toBe(205);
    expect((await q.http('DELETE', replyPath(third.id), { token: commenter.token })).status).toBe(205);
    expect((await q.http('DELETE', replyPath(third.id), { token: commenter.token })).status).toBe(204);
    expect((await q.http('GET', replyPath(third.id), { token: reader.token })).status).toBe(404);
    expect((await reader.api.spaces.getCommentInSpace(spaceId, comment.id)).data.replies).toBe(1);
  });

  it('deletes comments (author or admin; 205 then 204), and refuses what a deleted comment cannot take', async () => {
    const { data: mine } = await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('Delete me') as any });
    const { data: theirs } = await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('Admin deletes me') as any });
    const before = await openComments();
    const path = (id: string) => `${spaceComments()}/${id}`;
    expect((await q.http('DELETE', path(mine.id), { token: other.token })).status).toBe(403);
    expect((await q.http('DELETE', path(mine.id), { token: reader.token })).status).toBe(403);
    expect((await q.http('DELETE', path(mine.id), { token: outsider.token })).status).toBe(404);
    expect((await q.http('DELETE', path(mine.id), { token: commenter.token })).status).toBe(205);
    expect((await q.http('DELETE', path(mine.id), { token: commenter.token })).status).toBe(204);
    expect((await q.http('DELETE', path(theirs.id), { token: owner.token })).status).toBe(205);
    expect(await openComments()).toBe(before - 2);
    expect((await q.http('GET', path(mine.id), { token: commenter.token })).status).toBe(404);
    const { data: list } = await reader.api.spaces.listCommentsInSpace(spaceId);
    expect(list.items.map((c) => c.id)).not.toContain(mine.id);

    const reply = await q.http('POST', `${path(mine.id)}/replies`, { token: commenter.token, body: { body: doc('Too late') } });
    expect(reply.status).toBe(409);
    expect(reply.body.error.message).toMatch(/deleted/);
  });

  it('refuses bad input with 400 and callers without the right with 403 / 404', async () => {
    const post = (token: string, body: unknown) => q.http('POST', spaceComments(), { token, body });
    expect((await post(reader.token, { body: doc('Hi') })).status).toBe(403);
    expect((await post(outsider.token, { body: doc('Hi') })).status).toBe(404);
    expect((await q.http('GET', spaceComments(), { token: outsider.token })).status).toBe(404);
    for (const body of [undefined, {}, { body: 'text' }, { body: doc('') }, { body: { object: 'document', nodes: [] } }]) {
      const r = await post(commenter.token, body);
      expect({ body, status: r.status }).toEqual({ body, status: 400 });
    }
    const unknownPage = await post(commenter.token, { body: doc('Hi'), page: 'no-such-page' });
    expect(unknownPage.status).toBe(400);
    expect(unknownPage.body.error.message).toMatch(/no page no-such-page/);
    expect((await post(commenter.token, { body: doc('Hi'), node: 'n1' })).status).toBe(400);
    expect((await q.http('GET', `${spaceComments()}/nope`, { token: reader.token })).status).toBe(404);
    expect((await q.http('GET', `${spaceComments()}?status=maybe`, { token: reader.token })).status).toBe(400);
  });

  it('keeps change request comments (and those of reviews) apart, counted on the change request', async () => {
    const { data: cr } = await owner.api.spaces.createChangeRequest(spaceId, { subject: 'Discuss' });
    const spaceBefore = await openComments();
    const { data: comment } = await commenter.api.spaces.postCommentInChangeRequest(spaceId, cr.id, { body: doc('About this change') as any });
    expect(comment.target).toMatchObject({ space: spaceId, changeRequest: cr.id, revision: cr.revision });
    expect(comment.urls.location).toBe(`${q.config.publicUrl}/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${comment.id}`);
    const { data: reply } = await owner.api.spaces.postCommentReplyInChangeRequest(spaceId, cr.id, comment.id, { body: doc('Noted') as any });
    expect(reply.urls.location).toBe(`${q.config.publicUrl}/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${comment.id}/replies/${reply.id}`);

    const { data: review } = await other.api.spaces.submitChangeRequestReview(spaceId, cr.id, { status: ChangeRequestReviewStatus.ChangesRequested, comment: doc('Please fix') as any });
    expect(review.comment).toMatchObject({ object: 'comment', target: { changeRequest: cr.id, review: review.id }, postedBy: { id: other.id } });
    expect(textOf(review.comment!.body)).toBe('Please fix');

    const { data: list } = await reader.api.spaces.listCommentsInChangeRequest(spaceId, cr.id);
    expect(list.items.map((c) => c.id).sort()).toEqual([comment.id, review.comment!.id].sort());
    expect((await owner.api.spaces.getChangeRequestById(spaceId, cr.id)).data.comments).toBe(2);
    expect(await openComments()).toBe(spaceBefore);
    // Not reachable as a space comment, nor under another change request.
    expect((await q.http('GET', `${spaceComments()}/${comment.id}`, { token: reader.token })).status).toBe(404);
    const { data: otherCr } = await owner.api.spaces.createChangeRequest(spaceId, { subject: 'Other' });
    expect((await q.http('GET', `/v1/spaces/${spaceId}/change-requests/${otherCr.id}/comments/${comment.id}`, { token: reader.token })).status).toBe(404);

    await owner.api.spaces.updateCommentInChangeRequest(spaceId, cr.id, comment.id, { resolved: true });
    expect((await owner.api.spaces.getChangeRequestById(spaceId, cr.id)).data.comments).toBe(1);
    expect((await q.http('DELETE', `/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${review.comment!.id}`, { token: other.token })).status).toBe(205);
    expect((await owner.api.spaces.getChangeRequestById(spaceId, cr.id)).data.comments).toBe(0);
    // The review stays, without its deleted comment.
    expect((await reader.api.spaces.getChangeRequestReviewById(spaceId, cr.id, review.id)).data).not.toHaveProperty('comment');
  });

  it('leaves comments out of search', async () => {
    await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('zanzibarquux only lives in a comment') as any });
    await commenter.api.spaces.postCommentInSpace(spaceId, { body: doc('Guide mentioned in a comment') as any });
    await until('the guide to be searchable', async () => (await q.http('GET', `/v1/spaces/${spaceId}/search?query=guide`, { token: reader.token })).body.items?.length > 0, 20_000);
    const r = await q.http('GET', `/v1/spaces/${spaceId}/search?query=zanzibarquux`, { token: reader.token });
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
  });
});
