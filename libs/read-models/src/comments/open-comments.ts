import type { RecordedEvent } from '@quire/event-store/event-store.port';

/** The comment events that move GitBook's `comments` counters (open comments). */
export const OPEN_COMMENT_EVENTS = ['CommentPosted', 'CommentResolved', 'CommentReopened', 'CommentDeleted'] as const;

/**
 * How a comment event moves the count of open comments where it was posted: a space's own
 * comments count on the space, a change request's on the change request.
 */
export function openCommentsDelta(event: Pick<RecordedEvent, 'type' | 'data'>): { spaceId: string; changeRequestId?: string; delta: number } | undefined {
  const d = event.data as { spaceId: string; changeRequestId?: string; wasOpen?: boolean };
  const delta =
    event.type === 'CommentPosted' || event.type === 'CommentReopened' ? 1 : event.type === 'CommentResolved' || (event.type === 'CommentDeleted' && d.wasOpen) ? -1 : 0;
  return delta === 0 ? undefined : { spaceId: d.spaceId, ...(d.changeRequestId ? { changeRequestId: d.changeRequestId } : {}), delta };
}
