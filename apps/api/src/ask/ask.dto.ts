import { z } from 'zod';
import { queryBool } from '../http/validation';

/** GitBook's SearchAIQuery. */
export const askBody = z.object({
  query: z.string().min(1, 'is required').max(512),
  previousQueries: z.array(z.string().max(2000)).max(10).optional(),
});

export const askQuery = z.object({
  format: z.enum(['document', 'markdown']).optional(),
  /** Accepted for compatibility: GitBook's response has no field to carry details. */
  details: queryBool.optional(),
});

/** streamAskInOrganization takes the question in the query string. */
export const askStreamQuery = askQuery.extend({ query: z.string().min(1, 'is required').max(512) });
