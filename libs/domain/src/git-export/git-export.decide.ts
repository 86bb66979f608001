import { notFound } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { GitExportCompleted, GitExportEvent, GitExportFailureCode, GitExportRequest } from './git-export.events';
import { isRunSettled } from '../git-run/git-run';
import { isOutOfOrder, outOfOrderReason } from '../git-run/git-sync-order';
import { remoteKey, SpaceGitExports } from './git-export.state';

/** Records the request; the URL of `request` carries no credentials (they travel only with the job). */
export interface RequestGitExport {
  type: 'RequestGitExport';
  spaceId: string;
  request: GitExportRequest;
  requestedBy: string;
}

/** The job picked the export up: it starts, or is skipped as older than a sync applied, or cannot run. */
export interface StartGitExport {
  type: 'StartGitExport';
  exportId: string;
}

/** `revision` is on the remote branch as `commit`; `pushed` is false when the branch held it already. */
export interface CompleteGitExport {
  type: 'CompleteGitExport';
  exportId: string;
  revision: string;
  commit: GitExportCompleted['data']['commit'];
  pushed: boolean;
}

export interface FailGitExport {
  type: 'FailGitExport';
  exportId: string;
  code: GitExportFailureCode | 'internal';
  message: string;
}

export type GitExportCommand = RequestGitExport | StartGitExport | CompleteGitExport | FailGitExport;

/**
 * A space's git exports: one request, then at most one outcome. An export whose run already
 * settled decides nothing (a job run again after a crash, a retried completion).
 */
export function decideGitExport(command: GitExportCommand, state: SpaceGitExports, ctx: DecideContext): GitExportEvent[] {
  const at = ctx.now.toISOString();
  if (command.type === 'RequestGitExport') {
    return [{ type: 'GitExportRequested', data: { spaceId: command.spaceId, request: command.request, requestedBy: command.requestedBy, at } }];
  }
  const spaceId = state.space.spaceId!;
  const { exportId } = command;
  const run = state.exports[exportId];
  if (!run) {
    // A failure of a job whose export was never recorded has nothing to settle.
    if (command.type === 'FailGitExport') return [];
    throw notFound(`No export ${exportId} was requested for space ${spaceId}`);
  }
  if (isRunSettled(run.status)) return [];
  switch (command.type) {
    case 'StartGitExport':
      if (state.space.deletedAt) return [{ type: 'GitExportFailed', data: { spaceId, exportId, code: 'space_deleted', message: 'The space was deleted before the export ran', at } }];
      if (isOutOfOrder(state, run.request)) return [{ type: 'GitExportSkipped', data: { spaceId, exportId, reason: outOfOrderReason(state), at } }];
      return run.status === 'queued' ? [{ type: 'GitExportStarted', data: { spaceId, exportId, at } }] : [];
    case 'CompleteGitExport':
      return [
        {
          type: 'GitExportCompleted',
          data: { spaceId, exportId, revision: command.revision, commit: command.commit, pushed: command.pushed, standalone: !!run.request.standalone, at },
        },
      ];
    case 'FailGitExport':
      return [{ type: 'GitExportFailed', data: { spaceId, exportId, code: command.code, message: command.message, at } }];
  }
}

/** Where an export's commit goes, given the remote branch's current commit. */
export type ExportPlan =
  /** The branch does not exist: the commit has no parent and creates it. */
  | { kind: 'create-branch' }
  /**
   * The commit is a child of `parent`. `base` is the space revision with the content of
   * `parent` when the space is in sync with it: files it holds and the space no longer has
   * are removed, the rest of the remote tree is kept. Without it (a first export to a
   * branch with content, or a forced one) only what the space holds is written.
   */
  | { kind: 'on-top'; parent: string; base?: string; layout?: string }
  | { kind: 'refused'; code: 'remote_changed'; message: string };

/**
 * The export's safety rule: the branch may only be written on top of a commit the space is in
 * sync with (imported or exported), or when Quire never synced with that branch (a first
 * export). Otherwise commits Quire has not seen would be overwritten: refused, unless forced.
 */
export function planExport(state: SpaceGitExports, request: GitExportRequest, remoteCommit: string | undefined): ExportPlan {
  if (!remoteCommit) return { kind: 'create-branch' };
  const known = state.syncedCommits[remoteCommit];
  // `layout`: the revision last imported from the branch, whose files sit where the
  // repository has them (Quire's editor may have laid pages out elsewhere since).
  const layout = state.lastImported[remoteKey(request.url, request.ref)];
  if (known) return { kind: 'on-top', parent: remoteCommit, base: known.revision, ...(layout ? { layout } : {}) };
  const last = state.lastSynced[remoteKey(request.url, request.ref)];
  if (!last || request.force) return { kind: 'on-top', parent: remoteCommit };
  return {
    kind: 'refused',
    code: 'remote_changed',
    message:
      `${request.ref} has commits that are not in this space (it is at ${remoteCommit.slice(0, 12)}, last synced at ${last.slice(0, 12)}); ` +
      'nothing was pushed. Import the repository first, or export again with force to push over them',
  };
}
