import { CommentEvent } from './comment.events';
import { CommentActor, decideComment } from './comment.decide';
import { commentAggregate, CommentState } from './comment.state';

const ctx = { now: new Date('2025-01-01T00:00:00Z') };
const given = (...events: CommentEvent[]): CommentState => events.reduce(commentAggregate.evolve, commentAggregate.initialState());
const author: CommentActor = { actorId: 'u1', canComment: true, isAdmin: false };
const other: CommentActor = { actorId: 'u2', canComment: true, isAdmin: false };
const admin: CommentActor = { actorId: 'u3', canComment: true, isAdmin: true };
const reader: CommentActor = { actorId: 'u4', canComment: false, isAdmin: false };
const doc = (text: string) => ({ object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });
const posted = decideComment(
  { type: 'PostComment', commentId: 'c1', place: { spaceId: 's1', changeRequestId: 'cr1' }, revision: 'r1', pageId: 'p1', body: doc('Hi') },
  given(),
  author,
  ctx,
);

describe('comment decisions', () => {
  it('posts a comment where it was made, by whoever holds the comment role', () => {
    expect(posted).toEqual([
      { type: 'CommentPosted', data: { spaceId: 's1', changeRequestId: 'cr1', commentId: 'c1', revision: 'r1', pageId: 'p1', body: doc('Hi'), postedBy: 'u1', at: ctx.now.toISOString() } },
    ]);
    expect(() => decideComment({ type: 'PostComment', commentId: 'c2', place: { spaceId: 's1' }, revision: 'r1', body: doc('x') }, given(), reader, ctx)).toThrow(/comment role/);
  });

  it('lets only the author edit; anyone who comments resolves and reopens', () => {
    const state = given(...posted);
    expect(decideComment({ type: 'UpdateComment', body: doc('Edited') }, state, author, ctx).map((e) => e.type)).toEqual(['CommentEdited']);
    expect(() => decideComment({ type: 'UpdateComment', body: doc('Mine now') }, state, admin, ctx)).toThrow(/author/);
    const resolved = decideComment({ type: 'UpdateComment', resolved: true }, state, other, ctx);
    expect(resolved.map((e) => e.type)).toEqual(['CommentResolved']);
    expect(decideComment({ type: 'UpdateComment', resolved: true }, given(...posted, ...resolved), other, ctx)).toEqual([]);
    expect(decideComment({ type: 'UpdateComment', resolved: false }, given(...posted, ...resolved), other, ctx).map((e) => e.type)).toEqual(['CommentReopened']);
    expect(() => decideComment({ type: 'UpdateComment', resolved: true }, state, reader, ctx)).toThrow(/comment role/);
  });

  it('lets the author or a space admin delete, once, saying whether it was still open', () => {
    const state = given(...posted);
    expect(() => decideComment({ type: 'DeleteComment' }, state, other, ctx)).toThrow(/author.*admin/);
    const deleted = decideComment({ type: 'DeleteComment' }, state, admin, ctx);
    expect(deleted[0].data).toMatchObject({ wasOpen: true, by: 'u3' });
    expect(decideComment({ type: 'DeleteComment' }, given(...posted, ...deleted), author, ctx)).toEqual([]);
  });

  it('takes no replies or edits once deleted', () => {
    const deleted = given(...posted, ...decideComment({ type: 'DeleteComment' }, given(...posted), author, ctx));
    expect(() => decideComment({ type: 'PostCommentReply', replyId: 'x', body: doc('Late') }, deleted, other, ctx)).toThrow(/deleted/);
    expect(() => decideComment({ type: 'UpdateComment', body: doc('Late') }, deleted, author, ctx)).toThrow(/deleted/);
  });

  it('replies: posted by commenters, edited by their author, deleted by their author or an admin', () => {
    const replied = decideComment({ type: 'PostCommentReply', replyId: 'r1', body: doc('Reply') }, given(...posted), other, ctx);
    expect(replied[0].data).toMatchObject({ commentId: 'c1', replyId: 'r1', spaceId: 's1', changeRequestId: 'cr1', postedBy: 'u2' });
    const state = given(...posted, ...replied);
    expect(() => decideComment({ type: 'PostCommentReply', replyId: 'r2', body: doc('No') }, state, reader, ctx)).toThrow(/comment role/);
    expect(() => decideComment({ type: 'UpdateCommentReply', replyId: 'r1', body: doc('No') }, state, author, ctx)).toThrow(/author/);
    expect(decideComment({ type: 'UpdateCommentReply', replyId: 'r1', body: doc('Yes') }, state, other, ctx)).toHaveLength(1);
    expect(() => decideComment({ type: 'DeleteCommentReply', replyId: 'r1' }, state, author, ctx)).toThrow(/author.*admin/);
    const gone = decideComment({ type: 'DeleteCommentReply', replyId: 'r1' }, state, admin, ctx);
    expect(gone.map((e) => e.type)).toEqual(['CommentReplyDeleted']);
    expect(decideComment({ type: 'DeleteCommentReply', replyId: 'r1' }, given(...posted, ...replied, ...gone), other, ctx)).toEqual([]);
    expect(() => decideComment({ type: 'UpdateCommentReply', replyId: 'r1', body: doc('x') }, given(...posted, ...replied, ...gone), other, ctx)).toThrow(/not found/);
    expect(() => decideComment({ type: 'DeleteCommentReply', replyId: 'nope' }, state, admin, ctx)).toThrow(/not found/);
  });
});
