import { CommentActor } from '@quire/domain';
import { QuireConfig } from '@quire/platform/config/config';
import type { CommentReplyRow, CommentRow, CommentScope } from '@quire/read-models/comments/comments.queries';
import { presentUserRef } from '../change-requests/change-requests.presenter';

const iso = (d: Date | string) => new Date(d).toISOString();

export function commentsLocation(config: QuireConfig, scope: CommentScope): string {
  return `${config.publicUrl}/v1/spaces/${scope.spaceId}${scope.changeRequestId ? `/change-requests/${scope.changeRequestId}` : ''}/comments`;
}

const scopeOf = (row: { space_id: string; change_request_id: string | null }): CommentScope => ({
  spaceId: row.space_id,
  ...(row.change_request_id ? { changeRequestId: row.change_request_id } : {}),
});

/** What the caller (`viewer`) may do with a comment or reply they see. */
const permissions = (viewer: CommentActor, postedBy: string) => ({
  view: true,
  edit: viewer.actorId === postedBy,
  reply: viewer.canComment,
  delete: viewer.actorId === postedBy || viewer.isAdmin,
});

/** GitBook's Comment (Quire keeps no emoji reactions: always none). */
export function presentComment(config: QuireConfig, row: CommentRow, viewer: CommentActor) {
  return {
    object: 'comment' as const,
    id: row.id,
    postedBy: presentUserRef(config, row.poster, row.posted_by),
    postedAt: iso(row.posted_at),
    ...(row.edited_at ? { editedAt: iso(row.edited_at) } : {}),
    reactions: [],
    replies: row.replies,
    repliers: row.repliers.map((r) => ({ updatedAt: iso(r.updated_at), count: r.count, user: presentUserRef(config, r.user, r.user_id) })),
    body: row.body,
    target: {
      space: row.space_id,
      revision: row.revision,
      ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
      ...(row.review_id ? { review: row.review_id } : {}),
      ...(row.page_id ? { page: { id: row.page_id } } : {}),
      ...(row.node_id ? { node: { id: row.node_id } } : {}),
    },
    urls: { location: `${commentsLocation(config, scopeOf(row))}/${row.id}` },
    permissions: permissions(viewer, row.posted_by),
    ...(row.status === 'resolved'
      ? { status: 'resolved' as const, resolvedAt: iso(row.resolved_at!), resolvedBy: presentUserRef(config, row.resolver, row.resolved_by!) }
      : { status: 'open' as const }),
  };
}

/** GitBook's CommentReply. */
export function presentReply(config: QuireConfig, row: CommentReplyRow, viewer: CommentActor) {
  return {
    object: 'comment-reply' as const,
    id: row.id,
    postedBy: presentUserRef(config, row.poster, row.posted_by),
    postedAt: iso(row.posted_at),
    ...(row.edited_at ? { editedAt: iso(row.edited_at) } : {}),
    reactions: [],
    body: row.body,
    urls: { location: `${commentsLocation(config, scopeOf(row))}/${row.comment_id}/replies/${row.id}` },
    permissions: permissions(viewer, row.posted_by),
  };
}
