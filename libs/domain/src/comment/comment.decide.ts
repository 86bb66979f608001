import { conflict, DomainError, forbidden, notFound } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { CommentEvent, CommentPlace } from './comment.events';
import { CommentState } from './comment.state';

/**
 * What the caller may do on the comment's space, read by the caller from the read models:
 * `comment` is GitBook's comment role (and above), `admin` the space's admin role.
 */
export interface CommentActor {
  actorId: string;
  canComment: boolean;
  isAdmin: boolean;
}

export interface PostComment {
  type: 'PostComment';
  commentId: string;
  place: CommentPlace;
  revision: string;
  pageId?: string;
  nodeId?: string;
  reviewId?: string;
  body: unknown;
}

/** GitBook's updateComment: a new body (the author only) and/or `resolved` (anyone who comments). */
export interface UpdateComment {
  type: 'UpdateComment';
  body?: unknown;
  resolved?: boolean;
}

export interface DeleteComment {
  type: 'DeleteComment';
}

export interface PostCommentReply {
  type: 'PostCommentReply';
  replyId: string;
  body: unknown;
}

export interface UpdateCommentReply {
  type: 'UpdateCommentReply';
  replyId: string;
  body: unknown;
}

export interface DeleteCommentReply {
  type: 'DeleteCommentReply';
  replyId: string;
}

export type CommentCommand = PostComment | UpdateComment | DeleteComment | PostCommentReply | UpdateCommentReply | DeleteCommentReply;

/**
 * Comments and their replies: `comment` and above post and reply; only the author changes what
 * they wrote; the author or a space admin deletes. A deleted comment takes nothing more (deleting
 * it again does nothing, the caller answers 204).
 */
export function decideComment(command: CommentCommand, state: CommentState, actor: CommentActor, ctx: DecideContext): CommentEvent[] {
  const at = ctx.now.toISOString();
  if (command.type === 'PostComment') {
    if (state.exists) throw conflict(`Comment ${command.commentId} already exists`);
    requireComment(actor);
    return [
      {
        type: 'CommentPosted',
        data: {
          ...command.place,
          commentId: command.commentId,
          revision: command.revision,
          ...(command.pageId ? { pageId: command.pageId } : {}),
          ...(command.nodeId ? { nodeId: command.nodeId } : {}),
          ...(command.reviewId ? { reviewId: command.reviewId } : {}),
          body: command.body,
          postedBy: actor.actorId,
          at,
        },
      },
    ];
  }
  if (!state.exists) throw notFound('Comment not found');
  const ids = { ...state.place!, commentId: state.commentId! };
  if (command.type === 'DeleteComment') {
    if (state.deleted) return [];
    if (actor.actorId !== state.postedBy && !actor.isAdmin) throw forbidden('Only the author of a comment or a space admin can delete it');
    return [{ type: 'CommentDeleted', data: { ...ids, wasOpen: state.status === 'open', by: actor.actorId, at } }];
  }
  if (state.deleted) throw conflict('The comment was deleted: it takes no replies or changes');
  switch (command.type) {
    case 'UpdateComment': {
      const events: CommentEvent[] = [];
      if (command.body !== undefined) {
        if (actor.actorId !== state.postedBy) throw forbidden('Only the author of a comment can edit it');
        events.push({ type: 'CommentEdited', data: { ...ids, body: command.body, by: actor.actorId, at } });
      }
      if (command.resolved !== undefined && command.resolved !== (state.status === 'resolved')) {
        requireComment(actor);
        events.push({ type: command.resolved ? 'CommentResolved' : 'CommentReopened', data: { ...ids, by: actor.actorId, at } });
      }
      return events;
    }
    case 'PostCommentReply':
      requireComment(actor);
      if (state.replies[command.replyId]) throw conflict(`Reply ${command.replyId} already exists`);
      return [{ type: 'CommentReplyPosted', data: { ...ids, replyId: command.replyId, body: command.body, postedBy: actor.actorId, at } }];
    case 'UpdateCommentReply': {
      const reply = liveReply(state, command.replyId);
      if (actor.actorId !== reply.postedBy) throw forbidden('Only the author of a reply can edit it');
      return [{ type: 'CommentReplyEdited', data: { ...ids, replyId: command.replyId, body: command.body, by: actor.actorId, at } }];
    }
    case 'DeleteCommentReply': {
      const reply = state.replies[command.replyId];
      if (!reply) throw notFound('Reply not found');
      if (reply.deleted) return [];
      if (actor.actorId !== reply.postedBy && !actor.isAdmin) throw forbidden('Only the author of a reply or a space admin can delete it');
      return [{ type: 'CommentReplyDeleted', data: { ...ids, replyId: command.replyId, by: actor.actorId, at } }];
    }
  }
}

function requireComment(actor: CommentActor): void {
  if (!actor.canComment) throw new DomainError('forbidden', 'Commenting requires the comment role on the space');
}

function liveReply(state: CommentState, replyId: string) {
  const reply = state.replies[replyId];
  if (!reply || reply.deleted) throw notFound('Reply not found');
  return reply;
}
