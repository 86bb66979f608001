import { notFound } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { RevisionCreated } from '../revision/revision.events';
import { SpaceRevisionChanged } from '../space/space.events';
import { GitImportCompleted, GitImportEvent, GitImportRequest } from './git-import.events';
import { isRunSettled } from '../git-run/git-run';
import { isOutOfOrder, outOfOrderReason } from '../git-run/git-sync-order';
import { SpaceGitImports } from './git-import.state';

/** At most this many warnings are stored with an import (the event and the read models). */
export const MAX_STORED_WARNINGS = 100;

/** Records the request; the URL of `request` carries no credentials (they travel only with the job). */
export interface RequestGitImport {
  type: 'RequestGitImport';
  spaceId: string;
  request: GitImportRequest;
  requestedBy: string;
}

/** The job picked the import up: it starts, or is skipped as older than one applied, or cannot run. */
export interface StartGitImport {
  type: 'StartGitImport';
  importId: string;
}

/**
 * The repository was read and written as a revision on top of the space's live one: `created`
 * when it differs from it, absent when the repository holds exactly what the space shows (then
 * `revision` is that live revision and nothing else is recorded).
 */
export interface CompleteGitImport {
  type: 'CompleteGitImport';
  importId: string;
  revision: string;
  created?: RevisionCreated;
  commit: GitImportCompleted['data']['commit'];
  warnings: string[];
}

export interface FailGitImport {
  type: 'FailGitImport';
  importId: string;
  code: string;
  message: string;
}

export type GitImportCommand = RequestGitImport | StartGitImport | CompleteGitImport | FailGitImport;

export type GitImportDecision = GitImportEvent | RevisionCreated | SpaceRevisionChanged;

/**
 * A space's git imports: one request, then at most one outcome. An import whose run already
 * settled decides nothing (a job run again after a crash, a retried completion).
 */
export function decideGitImport(command: GitImportCommand, state: SpaceGitImports, ctx: DecideContext): GitImportDecision[] {
  const at = ctx.now.toISOString();
  if (command.type === 'RequestGitImport') {
    return [{ type: 'GitImportRequested', data: { spaceId: command.spaceId, request: command.request, requestedBy: command.requestedBy, at } }];
  }
  const spaceId = state.space.spaceId!;
  const { importId } = command;
  const run = state.git.imports[importId];
  if (!run) {
    // A failure of a job whose import was never recorded has nothing to settle.
    if (command.type === 'FailGitImport') return [];
    throw notFound(`No import ${importId} was requested for space ${spaceId}`);
  }
  if (isRunSettled(run.status)) return [];
  switch (command.type) {
    case 'StartGitImport':
      if (state.space.deletedAt) return [{ type: 'GitImportFailed', data: { spaceId, importId, code: 'space_deleted', message: 'The space was deleted before the import ran', at } }];
      if (isOutOfOrder(state.git, run.request)) {
        return [{ type: 'GitImportSkipped', data: { spaceId, importId, reason: outOfOrderReason(state.git), at } }];
      }
      return run.status === 'queued' ? [{ type: 'GitImportStarted', data: { spaceId, importId, at } }] : [];
    case 'CompleteGitImport': {
      const standalone = !!run.request.standalone;
      const completed: GitImportCompleted = {
        type: 'GitImportCompleted',
        data: { spaceId, importId, revision: command.revision, commit: command.commit, standalone, warnings: capWarnings(command.warnings), at },
      };
      if (!command.created) return [completed];
      return [command.created, ...(standalone ? [] : [{ type: 'SpaceRevisionChanged', data: { spaceId, revision: command.revision } } satisfies SpaceRevisionChanged]), completed];
    }
    case 'FailGitImport':
      return [{ type: 'GitImportFailed', data: { spaceId, importId, code: command.code, message: command.message, at } }];
  }
}

/** The first MAX_STORED_WARNINGS warnings and one that counts the rest: a messy repository
 * can produce thousands, and each is stored in the event and the read model. */
export function capWarnings(warnings: string[]): string[] {
  if (warnings.length <= MAX_STORED_WARNINGS) return warnings;
  const more = warnings.length - MAX_STORED_WARNINGS;
  return [...warnings.slice(0, MAX_STORED_WARNINGS), `... and ${more} more warning${more === 1 ? '' : 's'}`];
}
