import { QuireConfig } from '@quire/platform/config/config';
import type { RequestedReviewerRow, ReviewRow } from '@quire/read-models/change-request-reviews/reviews.queries';
import { changeRequestLocation, presentUserRef } from './change-requests.presenter';

const iso = (d: Date | string) => new Date(d).toISOString();

/** GitBook's ChangeRequestReview; `comment` is the Comment posted with it, when there is one. */
export function presentReview(config: QuireConfig, row: ReviewRow, comment?: unknown) {
  return {
    object: 'change-request-review' as const,
    id: row.id,
    revision: row.revision,
    reviewer: presentUserRef(config, row.reviewer, row.reviewer_id),
    ...(row.requested_by ? { requestedBy: presentUserRef(config, row.requester, row.requested_by) } : {}),
    status: row.status,
    outdated: row.outdated,
    ...(comment ? { comment } : {}),
    createdAt: iso(row.created_at),
    // A review is never edited: a new one supersedes it.
    updatedAt: iso(row.created_at),
    urls: { location: `${changeRequestLocation(config, row.space_id, row.change_request_id)}/reviews/${row.id}` },
  };
}

/** GitBook's ChangeRequestRequestedReviewer (Quire has no teams: always `kind: "user"`). */
export function presentRequestedReviewer(config: QuireConfig, row: RequestedReviewerRow) {
  return {
    object: 'change-request-requested-reviewer' as const,
    revision: row.revision,
    requestedBy: presentUserRef(config, row.requester, row.requested_by),
    createdAt: iso(row.created_at),
    kind: 'user' as const,
    user: presentUserRef(config, row.user, row.user_id),
  };
}
