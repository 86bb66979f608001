import { z } from 'zod';
import { paginationQuery } from '@quire/platform/http/pagination';
import { entityId } from '../http/validation';
import { jsonDocument } from '../change-requests/change-requests.dto';

const noReactions = {
  // Quire keeps no emoji reactions: asking for them is refused rather than silently dropped.
  addedReactions: z.array(z.string()).max(0, 'emoji reactions are not supported').optional(),
  removedReactions: z.array(z.string()).max(0, 'emoji reactions are not supported').optional(),
};

/** GitBook's PostCommentSchema (`tableCell` is not supported: Quire has no tables of records). */
export const postCommentBody = z.object({
  body: jsonDocument,
  page: entityId.optional(),
  node: z.string().min(1).max(200).optional(),
});

/** GitBook's UpdateCommentSchema. */
export const updateCommentBody = z
  .object({ body: jsonDocument.optional(), resolved: z.boolean().optional(), ...noReactions })
  .refine((b) => b.body !== undefined || b.resolved !== undefined, 'give a body or resolved');

/** GitBook's PostCommentReplySchema. */
export const postReplyBody = z.object({ body: jsonDocument });

/** GitBook's UpdateCommentReplySchema. */
export const updateReplyBody = z.object({ body: jsonDocument, ...noReactions });

/** Comments come as documents whatever `format` asks (GitBook's Comment.body is a Document). */
const format = z.enum(['document', 'markdown']).optional();
const authors = z.union([entityId, z.array(entityId).max(100)]).transform((v) => (Array.isArray(v) ? v : [v]));

export const listCommentsQuery = z.object({
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).default('desc'),
  status: z.enum(['all', 'open', 'resolved']).default('all'),
  targetPage: entityId.optional(),
  authors: authors.optional(),
  format,
});
export const listRepliesQuery = z.object({ ...paginationQuery, format });
export const readCommentQuery = z.object({ format });
