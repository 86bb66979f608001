import { DomainEvent } from '../shared/event';
import { RevisionCreated } from '../revision/revision.events';

/** GitBook's ChangeRequestStatus. */
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
/** GitBook's ChangeRequestSubject. */
export const CHANGE_REQUEST_SUBJECT_MAX = 100;

/**
 * Recorded in the space's stream, appended with its expected version: that is what makes a
 * change request's `number` unique per space (two creations racing retry on fresh state).
 */
export type ChangeRequestNumberAllocated = DomainEvent<
  'ChangeRequestNumberAllocated',
  { spaceId: string; changeRequestId: string; number: number; at: string }
>;

/** The rest live in `change-request-<id>`, together with the change request's own RevisionCreated. */
export type ChangeRequestCreated = DomainEvent<
  'ChangeRequestCreated',
  {
    changeRequestId: string;
    spaceId: string;
    number: number;
    subject: string;
    /** The space's live revision when the change request branched off; also its first head. */
    revisionInitial: string;
    createdBy: string;
    createdAt: string;
  }
>;

/** Subject and description (PATCH); `description: null` clears it. */
export type ChangeRequestDetailsChanged = DomainEvent<
  'ChangeRequestDetailsChanged',
  { changeRequestId: string; spaceId: string; subject?: string; description?: unknown | null; by: string; at: string }
>;

/** `from` is carried so the space's counters move without reading anything else. */
export type ChangeRequestStatusChanged = DomainEvent<
  'ChangeRequestStatusChanged',
  { changeRequestId: string; spaceId: string; from: ChangeRequestStatus; to: ChangeRequestStatus; by: string; at: string }
>;

/** A merge was asked for; its event id names the worker's job. Content edits wait until it ends. */
export type ChangeRequestMergeRequested = DomainEvent<
  'ChangeRequestMergeRequested',
  { changeRequestId: string; spaceId: string; requestId: string; requestedBy: string; at: string }
>;

export type ChangeRequestMerged = DomainEvent<
  'ChangeRequestMerged',
  {
    changeRequestId: string;
    spaceId: string;
    requestId: string;
    /** The status before merging (for the space's counters). */
    from: ChangeRequestStatus;
    /** The space revision the merge produced. */
    revisionMerged: string;
    /** The change request head that was merged. */
    revision: string;
    mergedBy: string;
    mergedAt: string;
  }
>;

/** Nothing reached the space: conflicts (the change request stays as it was) or a merge rule. */
export type ChangeRequestMergeFailed = DomainEvent<
  'ChangeRequestMergeFailed',
  {
    changeRequestId: string;
    spaceId: string;
    requestId: string;
    reason: 'conflicts' | 'merge_rules' | 'not_mergeable';
    message: string;
    /** The space's live revision the merge was tried against. */
    spaceRevision: string;
    /** Pages or files both sides changed in ways that do not combine. */
    conflicts: string[];
    at: string;
  }
>;

export type ChangeRequestUpdateRequested = DomainEvent<
  'ChangeRequestUpdateRequested',
  { changeRequestId: string; spaceId: string; requestId: string; requestedBy: string; at: string }
>;

/**
 * The space's revision was merged into the change request (a RevisionCreated of kind `update`
 * precedes it in the same append, unless nothing had to change).
 */
export type ChangeRequestUpdated = DomainEvent<
  'ChangeRequestUpdated',
  {
    changeRequestId: string;
    spaceId: string;
    requestId: string;
    /** The change request's head after the update. */
    revision: string;
    /** The space revision merged in: the change request's new base. */
    revisionMergedAncestor: string;
    result: 'update' | 'conflicts';
    /** Paths of the pages (API paths) and files that carry conflict markers in `revision`. */
    conflicts: string[];
    /** Ids of the conflicting pages, so they are found after a move or rename. Optional:
     * absent from updates recorded before it existed (their pages are found by path). */
    conflictPageIds?: string[];
    at: string;
  }
>;

/** GitBook's ChangeRequestReviewStatus. */
export const CHANGE_REQUEST_REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ChangeRequestReviewStatus = (typeof CHANGE_REQUEST_REVIEW_STATUSES)[number];

/**
 * Users asked to review the change request's head `revision`. Asking again someone who has
 * reviewed since their last request supersedes their reviews (GitBook shows those outdated).
 */
export type ChangeRequestReviewersRequested = DomainEvent<
  'ChangeRequestReviewersRequested',
  { changeRequestId: string; spaceId: string; users: string[]; revision: string; requestedBy: string; at: string }
>;

/** A requested reviewer taken off the change request; their reviews stay. */
export type ChangeRequestReviewerUnrequested = DomainEvent<
  'ChangeRequestReviewerUnrequested',
  { changeRequestId: string; spaceId: string; userId: string; by: string; at: string }
>;

/**
 * A review of the head `revision`; it supersedes the reviewer's earlier reviews. `requestedBy`
 * names who asked for it (absent for a review nobody asked for); `commentId` the comment posted
 * with it (a CommentPosted in that comment's stream, appended after this event).
 */
export type ChangeRequestReviewSubmitted = DomainEvent<
  'ChangeRequestReviewSubmitted',
  {
    changeRequestId: string;
    spaceId: string;
    reviewId: string;
    reviewer: string;
    status: ChangeRequestReviewStatus;
    revision: string;
    requestedBy?: string;
    commentId?: string;
    at: string;
  }
>;

export type ChangeRequestEvent =
  | ChangeRequestCreated
  | ChangeRequestReviewersRequested
  | ChangeRequestReviewerUnrequested
  | ChangeRequestReviewSubmitted
  | ChangeRequestDetailsChanged
  | ChangeRequestStatusChanged
  | ChangeRequestMergeRequested
  | ChangeRequestMerged
  | ChangeRequestMergeFailed
  | ChangeRequestUpdateRequested
  | ChangeRequestUpdated
  | RevisionCreated;

export const changeRequestStream = (changeRequestId: string) => `change-request-${changeRequestId}`;
