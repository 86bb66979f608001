import { z } from 'zod';
import { paginationQuery } from '@quire/platform/http/pagination';

/** GitBook's search parameters: `query` is required, at most 512 characters. */
export const searchQuery = z.object({
  query: z.string().min(1, 'is required').max(512),
  ...paginationQuery,
});
