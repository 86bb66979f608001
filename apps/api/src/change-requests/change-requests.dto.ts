import { z } from 'zod';
import { CHANGE_REQUEST_STATUSES, CHANGE_REQUEST_SUBJECT_MAX } from '@quire/domain';
import { paginationQuery } from '@quire/platform/http/pagination';
import { entityId, httpUrl, queryBool } from '../http/validation';
import { emojiInput } from '../spaces/spaces.dto';

/** GitBook's createChangeRequest body: `template` (and any other property) is accepted and ignored. */
export const createChangeRequestBody = z.looseObject({
  subject: z.string().max(CHANGE_REQUEST_SUBJECT_MAX).optional(),
});

/** A JSONDocument as clients send it; the handler normalises it (see normaliseDescription). */
export const jsonDocument = z.looseObject({
  object: z.literal('document'),
  data: z.record(z.string(), z.unknown()).optional(),
  nodes: z.array(z.looseObject({ object: z.string() })).max(10_000),
});

const linkInput = z.object({ id: z.string().max(100).optional(), ref: z.unknown(), title: z.string().max(128).optional() });

/** GitBook's updateChangeRequestById body. `links` are validated and not kept (Quire has no link integrations). */
export const editChangeRequestBody = z.object({
  subject: z.string().max(CHANGE_REQUEST_SUBJECT_MAX).optional(),
  description: jsonDocument.optional(),
  links: z.array(linkInput).max(10).optional(),
  status: z.enum(['draft', 'open', 'archived']).optional(),
});

export const listChangeRequestsQuery = z.object({
  ...paginationQuery,
  // GitBook's spec: `status` defaults to "open".
  status: z.enum(CHANGE_REQUEST_STATUSES).default('open'),
  creator: entityId.optional(),
  contributor: entityId.optional(),
  requestedReviewer: entityId.optional(),
  topic: z.string().max(200).optional(),
  orderBy: z.enum(['updatedAt', 'createdAt']).default('updatedAt'),
});

export const listContributorsQuery = z.object(paginationQuery);

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).max(10)]).transform((v) => (Array.isArray(v) ? v : [v]) as z.infer<T>[]);

/**
 * GitBook's listChangeRequestsForOrganization query. `site`, `topic` and `styleguideRun` name
 * things Quire never links change requests to; `finding` (triage) has nothing to include.
 */
export const listOrganizationChangeRequestsQuery = z.object({
  ...paginationQuery,
  status: oneOrMany(z.enum(CHANGE_REQUEST_STATUSES)).default(['open']),
  creator: entityId.optional(),
  contributor: entityId.optional(),
  requestedReviewer: entityId.optional(),
  space: entityId.optional(),
  site: z.string().max(200).optional(),
  topic: z.string().max(200).optional(),
  styleguideRun: z.string().max(200).optional(),
  finding: z.enum(['none', 'all']).optional(),
  orderBy: z.enum(['updatedAt', 'createdAt']).default('updatedAt'),
});

const documentInput = z.union([
  z.object({ markdown: z.string().max(2_000_000) }).strict(),
  z.object({ document: jsonDocument }).strict(),
  z.object({}).strict(),
]);

const pageMetadata = {
  title: z.string().min(1).max(300).optional(),
  slug: z.string().max(100).optional(),
  emoji: z.union([emojiInput, z.literal('')]).optional(),
  icon: z.string().max(50).optional(),
  description: z.string().max(2000).optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  condition: z.string().max(2000).optional(),
};

const ref = z.string().min(1).max(256);

/** 1 MB of decoded bytes. */
export const MAX_INLINE_FILE_BYTES = 1024 * 1024;

const fileInput = z
  .object({
    name: z.string().min(1).max(256),
    ref: ref.optional(),
    contentType: z.string().min(1).max(200).optional(),
    url: httpUrl.optional(),
    base64: z.string().max(Math.ceil((MAX_INLINE_FILE_BYTES * 4) / 3) + 8).regex(/^[A-Za-z0-9+/=\s]*$/, 'must be base64').optional(),
  })
  .refine((f) => (f.url === undefined) !== (f.base64 === undefined), 'set exactly one of url and base64')
  .refine((f) => f.base64 === undefined || f.contentType !== undefined, 'contentType is required with base64');

/** GitBook's ChangeRequestContentChange (discriminated by `operation`). */
const contentChange = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('insert_page'), ...pageMetadata, document: documentInput, into: entityId.optional(), at: z.number().int().min(0).optional(), ref: ref.optional() }),
  z.object({
    operation: z.literal('update_page'),
    ...pageMetadata,
    page: entityId,
    document: documentInput.optional(),
    into: entityId.nullable().optional(),
    at: z.number().int().min(0).optional(),
  }),
  z.object({ operation: z.literal('delete_page'), page: entityId }),
  z.object({ operation: z.literal('revert_page'), page: entityId, revision: z.string().max(100).optional(), block: z.array(z.string().max(100)).min(1).max(1000).optional() }),
  z.object({ operation: z.literal('insert_files'), files: z.array(fileInput).min(1).max(20) }),
]);

export const contentChangesBody = z.object({ changes: z.array(contentChange).min(1).max(50) });
export type ContentChangeInput = z.infer<typeof contentChange>;

export const contentChangesQuery = z.object({ compat: queryBool.default(true) });
