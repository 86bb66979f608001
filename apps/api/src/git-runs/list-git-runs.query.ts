import { z } from 'zod';
import { paginationQuery } from '@quire/platform/http/pagination';

/** The query of a space's list of git runs (`.../git/imports`, `.../git/exports`): a page of them, newest first. */
export const listGitRunsQuery = z.object(paginationQuery);
