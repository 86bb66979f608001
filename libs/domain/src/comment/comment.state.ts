import { Aggregate } from '../shared/event';
import { CommentEvent, CommentPlace } from './comment.events';

export interface CommentReplyState {
  postedBy: string;
  deleted: boolean;
}

export interface CommentState {
  exists: boolean;
  commentId?: string;
  place?: CommentPlace;
  postedBy?: string;
  status: 'open' | 'resolved';
  deleted: boolean;
  replies: Record<string, CommentReplyState>;
}

const placeOf = (d: CommentPlace): CommentPlace => ({ spaceId: d.spaceId, ...(d.changeRequestId ? { changeRequestId: d.changeRequestId } : {}) });

export const commentAggregate: Aggregate<CommentState, CommentEvent> = {
  initialState: () => ({ exists: false, status: 'open', deleted: false, replies: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'CommentPosted':
        return { ...state, exists: true, commentId: event.data.commentId, place: placeOf(event.data), postedBy: event.data.postedBy, status: 'open' };
      case 'CommentResolved':
        return { ...state, status: 'resolved' };
      case 'CommentReopened':
        return { ...state, status: 'open' };
      case 'CommentDeleted':
        return { ...state, deleted: true };
      case 'CommentReplyPosted':
        return { ...state, replies: { ...state.replies, [event.data.replyId]: { postedBy: event.data.postedBy, deleted: false } } };
      case 'CommentReplyDeleted': {
        const reply = state.replies[event.data.replyId];
        return reply ? { ...state, replies: { ...state.replies, [event.data.replyId]: { ...reply, deleted: true } } } : state;
      }
      default:
        return state;
    }
  },
};
