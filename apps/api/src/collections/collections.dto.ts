import { z } from 'zod';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX } from '@quire/domain';
import { paginationQuery } from '@quire/platform/http/pagination';
import { entityId, queryBool } from '../http/validation';
import { defaultLevelInput } from '../permissions/permissions.dto';

export const createCollectionBody = z.object({
  title: z.string().max(COLLECTION_TITLE_MAX).optional(),
  parent: entityId.optional(),
});

export const updateCollectionBody = z.object({
  title: z.string().max(COLLECTION_TITLE_MAX).optional(),
  description: z.string().max(COLLECTION_DESCRIPTION_MAX).optional(),
  defaultLevel: defaultLevelInput.optional(),
});

/** `nested` (default true) lists collections at every depth; false keeps the top-level ones. */
export const listCollectionsQuery = z.object({ ...paginationQuery, nested: queryBool.optional() });
