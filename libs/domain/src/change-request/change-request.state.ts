import { Aggregate } from '../shared/event';
import { RevisionFileNode, RevisionPageNode } from '../revision/page-tree';
import { ChangeRequestEvent, ChangeRequestReviewStatus, ChangeRequestStatus } from './change-request.events';

/** A review request; `answered` once the user reviewed after it (asking again is then a new request). */
export interface ReviewRequest {
  requestedBy: string;
  revision: string;
  at: string;
  answered: boolean;
}

export interface ChangeRequestReview {
  reviewId: string;
  reviewer: string;
  status: ChangeRequestReviewStatus;
  /** The head it was made against: a later head makes it outdated. */
  revision: string;
  requestedBy?: string;
  /** A newer review or review request of the same reviewer replaced it. */
  superseded: boolean;
  at: string;
}

export interface PendingRequest {
  requestId: string;
  at: string;
}

export interface ChangeRequestState {
  exists: boolean;
  changeRequestId?: string;
  spaceId?: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description?: unknown;
  createdBy?: string;
  createdAt?: string;
  updatedAt?: string;
  revisionInitial?: string;
  /** The head: the change request's latest revision. */
  revision?: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  mergedBy?: string;
  mergedAt?: string;
  /** The page tree of `revision` once the change request made one (before that, the head is a space revision). */
  head?: { revision: string; pages: RevisionPageNode[]; files: RevisionFileNode[] };
  /** Users who made content revisions, in order of first contribution. */
  contributors: string[];
  /** Requested reviewers by user id. */
  reviewRequests: Record<string, ReviewRequest>;
  /** Every review, oldest first. */
  reviews: ChangeRequestReview[];
  pendingMerge?: PendingRequest;
  pendingUpdate?: PendingRequest;
  /** What updates left with conflict markers; a merge is refused while any of them still holds
   * markers in the head. Kept across later updates: a clean update does not remove markers
   * an earlier one wrote (they are the change request's own lines by then). */
  updateConflicts?: { paths: string[]; pageIds: string[] };
}

function withConflicts(
  known: ChangeRequestState['updateConflicts'],
  paths: readonly string[],
  pageIds: readonly string[],
): ChangeRequestState['updateConflicts'] {
  if (paths.length === 0 && pageIds.length === 0) return known;
  return { paths: [...new Set([...(known?.paths ?? []), ...paths])], pageIds: [...new Set([...(known?.pageIds ?? []), ...pageIds])] };
}

const supersede = (reviews: ChangeRequestReview[], users: readonly string[]): ChangeRequestReview[] =>
  reviews.map((r) => (!r.superseded && users.includes(r.reviewer) ? { ...r, superseded: true } : r));

/** A review no longer counts once superseded or once the head moved past the revision it saw. */
export function isReviewOutdated(review: Pick<ChangeRequestReview, 'superseded' | 'revision'>, head: string | undefined): boolean {
  return review.superseded || review.revision !== head;
}

/** The revision both the change request and the space moved on from. */
export function changeRequestBase(state: Pick<ChangeRequestState, 'revisionMergedAncestor' | 'revisionInitial'>): string {
  return (state.revisionMergedAncestor ?? state.revisionInitial)!;
}

export const changeRequestAggregate: Aggregate<ChangeRequestState, ChangeRequestEvent> = {
  initialState: () => ({ exists: false, number: 0, status: 'draft', subject: '', contributors: [], reviewRequests: {}, reviews: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'ChangeRequestCreated': {
        const d = event.data;
        return {
          ...state,
          exists: true,
          changeRequestId: d.changeRequestId,
          spaceId: d.spaceId,
          number: d.number,
          status: 'draft',
          subject: d.subject,
          createdBy: d.createdBy,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          revisionInitial: d.revisionInitial,
          revision: d.revisionInitial,
        };
      }
      case 'ChangeRequestDetailsChanged': {
        const d = event.data;
        const next: ChangeRequestState = { ...state, updatedAt: d.at };
        if (d.subject !== undefined) next.subject = d.subject;
        if (d.description !== undefined) next.description = d.description ?? undefined;
        return next;
      }
      case 'ChangeRequestStatusChanged':
        return { ...state, status: event.data.to, updatedAt: event.data.at };
      case 'RevisionCreated': {
        const d = event.data;
        const contributors = d.kind === 'edits' && d.createdBy && !state.contributors.includes(d.createdBy) ? [...state.contributors, d.createdBy] : state.contributors;
        return { ...state, revision: d.revision, head: { revision: d.revision, pages: d.pages, files: d.files }, contributors, updatedAt: d.createdAt };
      }
      case 'ChangeRequestReviewersRequested': {
        const d = event.data;
        const reviewRequests = { ...state.reviewRequests };
        for (const user of d.users) reviewRequests[user] = { requestedBy: d.requestedBy, revision: d.revision, at: d.at, answered: false };
        return { ...state, reviewRequests, reviews: supersede(state.reviews, d.users) };
      }
      case 'ChangeRequestReviewerUnrequested': {
        const { [event.data.userId]: _removed, ...reviewRequests } = state.reviewRequests;
        return { ...state, reviewRequests };
      }
      case 'ChangeRequestReviewSubmitted': {
        const d = event.data;
        const request = state.reviewRequests[d.reviewer];
        const review: ChangeRequestReview = {
          reviewId: d.reviewId,
          reviewer: d.reviewer,
          status: d.status,
          revision: d.revision,
          ...(d.requestedBy ? { requestedBy: d.requestedBy } : {}),
          superseded: false,
          at: d.at,
        };
        return {
          ...state,
          reviewRequests: request ? { ...state.reviewRequests, [d.reviewer]: { ...request, answered: true } } : state.reviewRequests,
          reviews: [...supersede(state.reviews, [d.reviewer]), review],
        };
      }
      case 'ChangeRequestMergeRequested':
        return { ...state, pendingMerge: { requestId: event.data.requestId, at: event.data.at } };
      case 'ChangeRequestMerged': {
        const d = event.data;
        return {
          ...state,
          status: 'merged',
          revisionMerged: d.revisionMerged,
          mergedBy: d.mergedBy,
          mergedAt: d.mergedAt,
          updatedAt: d.mergedAt,
          pendingMerge: undefined,
        };
      }
      case 'ChangeRequestMergeFailed':
        return state.pendingMerge?.requestId === event.data.requestId ? { ...state, pendingMerge: undefined } : state;
      case 'ChangeRequestUpdateRequested':
        return { ...state, pendingUpdate: { requestId: event.data.requestId, at: event.data.at } };
      case 'ChangeRequestUpdated': {
        const d = event.data;
        return {
          ...state,
          revision: d.revision,
          revisionMergedAncestor: d.revisionMergedAncestor,
          updateConflicts: withConflicts(state.updateConflicts, d.conflicts, d.conflictPageIds ?? []),
          updatedAt: d.at,
          pendingUpdate: state.pendingUpdate?.requestId === d.requestId ? undefined : state.pendingUpdate,
        };
      }
      default:
        return state;
    }
  },
};
