import { badRequest, conflict, DomainError, notFound, unprocessable } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { RevisionCreated } from '../revision/revision.events';
import { MergeRulesConfiguration, SpaceEditMode } from '../space/space.settings';
import { CHANGE_REQUEST_SUBJECT_MAX, ChangeRequestEvent, ChangeRequestMergeFailed, ChangeRequestReviewStatus } from './change-request.events';
import { changeRequestBase, ChangeRequestState, PendingRequest } from './change-request.state';
import { MergeFacts, mergeRuleViolations, reviewFacts } from './merge-rules';

/**
 * A pending merge or update holds the change request until its completion or failure event,
 * however long its job runs. Only a request whose job the caller verified gone (failed for
 * good, or no longer in the queue) stops holding: its id is passed in `abandoned`, and a new
 * request then starts a new job.
 */
export interface AbandonedRequests {
  abandoned?: readonly string[];
}

/** The change request is held by a pending merge or update; `requestId` names its job. */
export class PendingRequestError extends DomainError {
  constructor(
    readonly kind: 'merge' | 'update',
    readonly request: PendingRequest,
    message: string,
  ) {
    super('conflict', message);
  }
}

export interface CreateChangeRequest {
  type: 'CreateChangeRequest';
  changeRequestId: string;
  spaceId: string;
  number: number;
  subject?: string;
  revisionInitial: string;
  creatorId: string;
}

export interface EditChangeRequest extends AbandonedRequests {
  type: 'EditChangeRequest';
  subject?: string;
  description?: unknown | null;
  status?: 'draft' | 'open' | 'archived';
  actorId: string;
}

/** A content batch turned into a revision on top of `onHead` (the head it was computed from). */
export interface RecordChangeRequestRevision extends AbandonedRequests {
  type: 'RecordChangeRequestRevision';
  revision: RevisionCreated;
  onHead: string;
}

export interface RequestChangeRequestMerge extends AbandonedRequests {
  type: 'RequestChangeRequestMerge';
  requestId: string;
  actorId: string;
  space: { revision: string; mergeRules: MergeRulesConfiguration };
}

export interface CompleteChangeRequestMerge {
  type: 'CompleteChangeRequestMerge';
  requestId: string;
  revisionMerged: string;
  /** The head that was merged. */
  revision: string;
  mergedBy: string;
}

export interface FailChangeRequestMerge {
  type: 'FailChangeRequestMerge';
  requestId: string;
  reason: ChangeRequestMergeFailed['data']['reason'];
  message: string;
  spaceRevision: string;
  conflicts: string[];
}

export interface RequestChangeRequestUpdate extends AbandonedRequests {
  type: 'RequestChangeRequestUpdate';
  requestId: string;
  actorId: string;
}

export interface CompleteChangeRequestUpdate {
  type: 'CompleteChangeRequestUpdate';
  requestId: string;
  /** The new head (absent when the change request already had everything). */
  revision?: RevisionCreated;
  /** The head the update was computed from. */
  onHead: string;
  revisionMergedAncestor: string;
  conflicts: string[];
  /** Ids of the pages among `conflicts`. */
  conflictPageIds?: string[];
}

/**
 * Asks users to review the head. Who may be asked (existing users with the review role on the
 * space) is checked by the caller on the read models; users already asked and yet to review
 * are left as they are.
 */
export interface RequestChangeRequestReviewers {
  type: 'RequestChangeRequestReviewers';
  users: string[];
  actorId: string;
}

export interface UnrequestChangeRequestReviewer {
  type: 'UnrequestChangeRequestReviewer';
  userId: string;
  actorId: string;
}

/** A review of the head by `actorId` (who holds the review role on the space: checked by the caller). */
export interface SubmitChangeRequestReview {
  type: 'SubmitChangeRequestReview';
  reviewId: string;
  status: ChangeRequestReviewStatus;
  /** The id of the comment that goes with the review, if any. */
  commentId?: string;
  actorId: string;
}

export type ChangeRequestCommand =
  | CreateChangeRequest
  | RequestChangeRequestReviewers
  | UnrequestChangeRequestReviewer
  | SubmitChangeRequestReview
  | EditChangeRequest
  | RecordChangeRequestRevision
  | RequestChangeRequestMerge
  | CompleteChangeRequestMerge
  | FailChangeRequestMerge
  | RequestChangeRequestUpdate
  | CompleteChangeRequestUpdate;

/** The head moved while a revision was being computed on top of it: compute again. */
export class StaleHeadError extends DomainError {
  constructor(readonly expected: string, readonly actual: string | undefined) {
    super('conflict', 'The change request changed while this was being applied; retry');
  }
}

export function decideChangeRequest(command: ChangeRequestCommand, state: ChangeRequestState, ctx: DecideContext): ChangeRequestEvent[] {
  const at = ctx.now.toISOString();
  if (command.type === 'CreateChangeRequest') {
    if (state.exists) throw conflict(`Change request ${command.changeRequestId} already exists`);
    const subject = command.subject ?? '';
    assertSubject(subject);
    return [
      {
        type: 'ChangeRequestCreated',
        data: {
          changeRequestId: command.changeRequestId,
          spaceId: command.spaceId,
          number: command.number,
          subject,
          revisionInitial: command.revisionInitial,
          createdBy: command.creatorId,
          createdAt: at,
        },
      },
    ];
  }
  if (!state.exists) throw notFound('Change request not found');
  const ids = { changeRequestId: state.changeRequestId!, spaceId: state.spaceId! };
  switch (command.type) {
    case 'EditChangeRequest': {
      const events: ChangeRequestEvent[] = [];
      const details: { subject?: string; description?: unknown | null } = {};
      if (command.subject !== undefined && command.subject !== state.subject) {
        assertSubject(command.subject);
        details.subject = command.subject;
      }
      if (command.description !== undefined && JSON.stringify(command.description) !== JSON.stringify(state.description ?? null)) {
        details.description = command.description;
      }
      if (Object.keys(details).length > 0) events.push({ type: 'ChangeRequestDetailsChanged', data: { ...ids, ...details, by: command.actorId, at } });
      if (command.status !== undefined && command.status !== state.status) {
        if (state.status === 'merged') throw conflict('A merged change request keeps its status');
        holdFor(state.pendingMerge, 'merge', command.abandoned, 'The change request is being merged');
        events.push({ type: 'ChangeRequestStatusChanged', data: { ...ids, from: state.status, to: command.status, by: command.actorId, at } });
      }
      return events;
    }
    case 'RecordChangeRequestRevision': {
      if (state.status === 'merged') throw conflict('A merged change request cannot be edited');
      holdFor(state.pendingMerge, 'merge', command.abandoned, 'The change request is being merged; edit it once the merge has finished');
      if (state.revision !== command.onHead) throw new StaleHeadError(command.onHead, state.revision);
      return [command.revision];
    }
    case 'RequestChangeRequestReviewers': {
      if (state.status === 'merged') throw conflict('A merged change request takes no review requests');
      const users = [...new Set(command.users)].filter((u) => !(state.reviewRequests[u] && !state.reviewRequests[u].answered));
      if (users.length === 0) return [];
      return [{ type: 'ChangeRequestReviewersRequested', data: { ...ids, users, revision: state.revision!, requestedBy: command.actorId, at } }];
    }
    case 'UnrequestChangeRequestReviewer':
      if (!state.reviewRequests[command.userId]) return [];
      return [{ type: 'ChangeRequestReviewerUnrequested', data: { ...ids, userId: command.userId, by: command.actorId, at } }];
    case 'SubmitChangeRequestReview': {
      if (state.status === 'merged') throw conflict('A merged change request can no longer be reviewed');
      if (state.status === 'archived') throw conflict('An archived change request cannot be reviewed; reopen it first');
      const request = state.reviewRequests[command.actorId];
      return [
        {
          type: 'ChangeRequestReviewSubmitted',
          data: {
            ...ids,
            reviewId: command.reviewId,
            reviewer: command.actorId,
            status: command.status,
            revision: state.revision!,
            ...(request ? { requestedBy: request.requestedBy } : {}),
            ...(command.commentId ? { commentId: command.commentId } : {}),
            at,
          },
        },
      ];
    }
    case 'RequestChangeRequestMerge': {
      // Already merged (a retried request) or already being merged: the caller waits for that.
      if (state.status === 'merged' || isPending(state.pendingMerge, command.abandoned)) return [];
      // An update moves the head under the merge: one at a time.
      holdFor(state.pendingUpdate, 'update', command.abandoned, 'The change request is being updated from the space; merge it once the update has finished');
      if (state.status === 'archived') throw conflict(ARCHIVED);
      const violations = mergeRuleViolations(command.space.mergeRules, mergeFacts(state, command.space.revision, command.actorId));
      if (violations.length > 0) throw unprocessable(`The merge rules of this space block the merge: ${violations.join('; ')}`, { violations });
      return [{ type: 'ChangeRequestMergeRequested', data: { ...ids, requestId: command.requestId, requestedBy: command.actorId, at } }];
    }
    case 'CompleteChangeRequestMerge':
      if (state.status === 'merged') return [];
      return [
        {
          type: 'ChangeRequestMerged',
          data: {
            ...ids,
            requestId: command.requestId,
            from: state.status,
            revisionMerged: command.revisionMerged,
            revision: command.revision,
            mergedBy: command.mergedBy,
            mergedAt: at,
          },
        },
      ];
    case 'FailChangeRequestMerge':
      if (state.status === 'merged') return [];
      return [
        {
          type: 'ChangeRequestMergeFailed',
          data: {
            ...ids,
            requestId: command.requestId,
            reason: command.reason,
            message: command.message,
            spaceRevision: command.spaceRevision,
            conflicts: command.conflicts,
            at,
          },
        },
      ];
    case 'RequestChangeRequestUpdate':
      if (state.status === 'merged') throw conflict('A merged change request cannot be updated');
      if (isPending(state.pendingUpdate, command.abandoned)) return [];
      holdFor(state.pendingMerge, 'merge', command.abandoned, 'The change request is being merged; it cannot be updated meanwhile');
      return [{ type: 'ChangeRequestUpdateRequested', data: { ...ids, requestId: command.requestId, requestedBy: command.actorId, at } }];
    case 'CompleteChangeRequestUpdate': {
      if (state.status === 'merged') throw conflict('A merged change request cannot be updated');
      // A merge requested after this update was abandoned works on the head as it is.
      if (state.pendingMerge) throw conflict('The change request is being merged; it cannot be updated meanwhile');
      if (state.revision !== command.onHead) throw new StaleHeadError(command.onHead, state.revision);
      const events: ChangeRequestEvent[] = command.revision ? [command.revision] : [];
      events.push({
        type: 'ChangeRequestUpdated',
        data: {
          ...ids,
          requestId: command.requestId,
          revision: command.revision?.data.revision ?? state.revision!,
          revisionMergedAncestor: command.revisionMergedAncestor,
          result: command.conflicts.length > 0 ? 'conflicts' : 'update',
          conflicts: command.conflicts,
          ...(command.conflictPageIds?.length ? { conflictPageIds: command.conflictPageIds } : {}),
          at,
        },
      });
      return events;
    }
  }
}

/** The space and the head as the merge finds them (the space may have moved since the request). */
export interface MergeCheck {
  /** `mergeRules`: the rules in effect, the space's own or its organization's (effectiveMergeRules). */
  space: { revision: string; editMode: SpaceEditMode; mergeRules: MergeRulesConfiguration };
  actorId: string;
  /** Pages and files the last update left conflicting that still hold conflict markers in the head. */
  markedPages: readonly string[];
}

/** Why a requested merge does not happen: recorded as ChangeRequestMergeFailed, answered with `code`. */
export interface MergeRefusal {
  reason: ChangeRequestMergeFailed['data']['reason'];
  code: 'unprocessable' | 'conflict';
  message: string;
  conflicts: string[];
}

const ARCHIVED = 'An archived change request cannot be merged; reopen it first';

/**
 * The preconditions of a merge, checked when the worker merges, in this order: the space is not
 * locked, the change request is not archived, no conflict markers an update left remain (a
 * fast-forward would publish them), and the space's merge rules let it through. Undefined: the
 * merge may go on.
 */
export function mergeRefusal(state: ChangeRequestState, check: MergeCheck): MergeRefusal | undefined {
  if (check.space.editMode === 'locked') {
    return { reason: 'not_mergeable', code: 'unprocessable', message: 'The space is locked: nothing can be merged into it', conflicts: [] };
  }
  if (state.status === 'archived') return { reason: 'not_mergeable', code: 'conflict', message: ARCHIVED, conflicts: [] };
  const marked = check.markedPages;
  if (marked.length > 0) {
    const message = `The change request still has conflict markers in ${marked.join(', ')}: resolve them by editing ${marked.length > 1 ? 'those pages' : 'that page'}, then merge`;
    return { reason: 'conflicts', code: 'unprocessable', message, conflicts: [...marked] };
  }
  const violations = mergeRuleViolations(check.space.mergeRules, mergeFacts(state, check.space.revision, check.actorId));
  if (violations.length > 0) {
    return { reason: 'merge_rules', code: 'unprocessable', message: `The merge rules of this space block the merge: ${violations.join('; ')}`, conflicts: [] };
  }
  return undefined;
}

/**
 * What the merge rules look at, from the change request (its reviewers' latest reviews
 * included) and the space's live revision.
 */
function mergeFacts(state: ChangeRequestState, spaceRevision: string, actorId: string): MergeFacts {
  return {
    outdated: spaceRevision !== changeRequestBase(state),
    subject: state.subject,
    hasDescription: state.description !== undefined && state.description !== null,
    createdBy: state.createdBy!,
    actorId,
    reviews: reviewFacts(state),
  };
}

export function isPending(request: PendingRequest | undefined, abandoned: readonly string[] = []): request is PendingRequest {
  return !!request && !abandoned.includes(request.requestId);
}

function holdFor(request: PendingRequest | undefined, kind: 'merge' | 'update', abandoned: readonly string[] | undefined, message: string): void {
  if (isPending(request, abandoned)) throw new PendingRequestError(kind, request, message);
}

function assertSubject(subject: string): void {
  if (subject.length > CHANGE_REQUEST_SUBJECT_MAX) throw badRequest(`A change request subject has at most ${CHANGE_REQUEST_SUBJECT_MAX} characters`);
}
