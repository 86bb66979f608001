import { z } from 'zod';
import { CHANGE_REQUEST_REVIEW_STATUSES, CHANGE_REQUEST_SUBJECT_MAX } from '@quire/domain';
import { paginationQuery } from '@quire/platform/http/pagination';
import { entityId, queryBool } from '../http/validation';
import { jsonDocument } from './change-requests.dto';

/** GitBook's requestReviewersForChangeRequest body. */
export const requestReviewersBody = z.object({
  users: z.array(entityId).min(1).max(50),
  subject: z.string().max(CHANGE_REQUEST_SUBJECT_MAX).optional(),
  description: jsonDocument.optional(),
});

/** GitBook's submitChangeRequestReview body. */
export const submitReviewBody = z.object({
  status: z.enum(CHANGE_REQUEST_REVIEW_STATUSES),
  comment: jsonDocument.optional(),
});

export const listReviewsQuery = z.object({ ...paginationQuery, outdated: queryBool.optional() });
export const listRequestedReviewersQuery = z.object(paginationQuery);
