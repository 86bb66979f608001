import { Position } from '@quire/event-store/position';
import { ListResponse } from '@quire/platform/http/pagination';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ProjectionFailedError, ProjectionTimeoutError } from '@quire/projections/projector';
import { Caller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { listGitRunsQuery } from './list-git-runs.query';

/** A read model of one kind of git run (imports, exports). */
export interface GitRunsReadModel<T> {
  list(spaceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<T>>;
  appliedThrough(): Promise<Position>;
}

/** The read models a space's content is read from: its live revision, and that revision's pages. */
const CONTENT_READ_MODELS = ['spaces', 'content'];
/** How long a list of runs waits for them before it answers anyway. */
const WAIT_MS = 5_000;

/**
 * A page of a space's git runs of one kind (`GET .../git/imports`, `.../git/exports`), for a reader
 * of the space.
 *
 * A run the list shows as completed has its effects readable too: read models commit one by one,
 * so without this a client that polls a space's runs until "completed" and then reads a page could
 * still be served the revision from before the import (seen as a flaky e2e). The list waits,
 * bounded, for the space's content read models (and every process's read caches) to reach what
 * the runs' read model has applied. Past the bound, or with a content read model failed, it
 * answers anyway: it is right either way, and a stuck read model shows in /health/ready.
 */
export async function listSpaceGitRuns<T>(
  deps: { access: AccessService; executor: CommandExecutor },
  runs: GitRunsReadModel<T>,
  caller: Caller,
  spaceId: string,
  query: unknown,
): Promise<ListResponse<T>> {
  await deps.access.spaceAccess(caller, spaceId, 'read');
  const page = await runs.list(spaceId, parseInput(listGitRunsQuery, query, 'query'));
  await deps.executor.waitForReadModels(await runs.appliedThrough(), CONTENT_READ_MODELS, WAIT_MS).catch((err) => {
    if (!(err instanceof ProjectionTimeoutError || err instanceof ProjectionFailedError)) throw err;
  });
  return page;
}
