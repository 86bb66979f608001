import { DomainEvent } from '../shared/event';

/**
 * Where a comment is: a space (its live content) or one of its change requests, at the revision
 * shown when it was posted, optionally on a page and a node (block) of it, or as part of a review.
 * Every event of a comment carries `spaceId` and `changeRequestId` so the counters of both move
 * without reading anything else.
 */
export interface CommentPlace {
  spaceId: string;
  changeRequestId?: string;
}

export type CommentPosted = DomainEvent<
  'CommentPosted',
  CommentPlace & {
    commentId: string;
    revision: string;
    pageId?: string;
    nodeId?: string;
    reviewId?: string;
    /** A GitBook document. */
    body: unknown;
    postedBy: string;
    at: string;
  }
>;

export type CommentEdited = DomainEvent<'CommentEdited', CommentPlace & { commentId: string; body: unknown; by: string; at: string }>;
export type CommentResolved = DomainEvent<'CommentResolved', CommentPlace & { commentId: string; by: string; at: string }>;
export type CommentReopened = DomainEvent<'CommentReopened', CommentPlace & { commentId: string; by: string; at: string }>;
/** `wasOpen`: whether it still counted among the open comments (GitBook's `comments` counters). */
export type CommentDeleted = DomainEvent<'CommentDeleted', CommentPlace & { commentId: string; wasOpen: boolean; by: string; at: string }>;

export type CommentReplyPosted = DomainEvent<'CommentReplyPosted', CommentPlace & { commentId: string; replyId: string; body: unknown; postedBy: string; at: string }>;
export type CommentReplyEdited = DomainEvent<'CommentReplyEdited', CommentPlace & { commentId: string; replyId: string; body: unknown; by: string; at: string }>;
export type CommentReplyDeleted = DomainEvent<'CommentReplyDeleted', CommentPlace & { commentId: string; replyId: string; by: string; at: string }>;

export type CommentEvent =
  | CommentPosted
  | CommentEdited
  | CommentResolved
  | CommentReopened
  | CommentDeleted
  | CommentReplyPosted
  | CommentReplyEdited
  | CommentReplyDeleted;

/** One stream per comment, its replies included. */
export const commentStream = (commentId: string) => `comment-${commentId}`;
