import { Position } from '@quire/event-store/position';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ProjectionFailedError, ProjectionTimeoutError } from '@quire/projections/projector';

/** The read models a space's content is read from: its live revision, and that revision's pages. */
const CONTENT_READ_MODELS = ['spaces', 'content'];
/** How long a list of runs waits for them before it answers anyway. */
const WAIT_MS = 5_000;

/**
 * A run the list shows as completed has its effects readable too: read models commit one by one,
 * so without this a client that polls a space's runs until "completed" and then reads a page could
 * still be served the revision from before the import (seen as a flaky e2e). Waits, bounded, for
 * the space's content read models (and every process's read caches) to reach what the runs' read
 * model has applied. Past the bound, or with a content read model failed, the list answers anyway:
 * it is right either way, and a stuck read model shows in /health/ready.
 */
export async function waitForRunsEffects(executor: CommandExecutor, appliedThrough: Position): Promise<void> {
  await executor.waitForReadModels(appliedThrough, CONTENT_READ_MODELS, WAIT_MS).catch((err) => {
    if (!(err instanceof ProjectionTimeoutError || err instanceof ProjectionFailedError)) throw err;
  });
}
