import { z } from 'zod';
import { queryBool } from '../../http/validation';

/** GitBook's `limit` of semantic changes: 10 unless asked, at most 1,000 (the rest is counted in `more`). */
const limit = z.coerce.number().int().min(1).max(1000).default(10);

export const revisionChangesQuery = z.object({ metadata: queryBool.default(true), computed: queryBool.default(true), limit });
export const changeRequestChangesQuery = z.object({ limit });
