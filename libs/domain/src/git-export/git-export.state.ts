import type { GitImportCompleted, GitImportRequested } from '../index';
import { spaceAggregate, SpaceState } from '../space/space.state';
import { SpaceEvent } from '../space/space.events';
import { GitRunStatus } from '../git-run/git-run';
import { gitSyncOrder, GitSyncOrder } from '../git-run/git-sync-order';
import { GitExportEvent, GitExportRequest } from './git-export.events';

export type GitExportStatus = GitRunStatus;

/** A commit Quire and the remote agree on: imported from it, or exported to it. */
export interface SyncedCommit {
  /** The space revision with that commit's content. */
  revision: string;
}

/**
 * What a space's stream says for exporting it: the space itself, its export runs, and what
 * every import and export left behind — the newest `timestamp` applied (imports and
 * exports are ordered together, as GitBook orders them) and the commits the space is in
 * sync with, per remote branch.
 */
export interface SpaceGitExports extends GitSyncOrder {
  space: SpaceState;
  exports: Record<string, { request: GitExportRequest; status: GitExportStatus; requestedBy: string }>;
  /** Commit oid -> the revision holding its content (linked imports and exports only). */
  syncedCommits: Record<string, SyncedCommit>;
  /** `remoteKey(url, ref)` -> the last commit synced with that branch. */
  lastSynced: Record<string, string>;
  /** `remoteKey(url, ref)` -> the revision of the last import from that branch: its files
   * are laid out as the repository lays them out. */
  lastImported: Record<string, string>;
  /** What each requested import asked for, until it completes. */
  importRequests: Record<string, { url: string; ref: string; standalone?: boolean }>;
}

type Folded = GitExportEvent | SpaceEvent | GitImportRequested | GitImportCompleted;

export const gitExportAggregate = {
  initialState: (): SpaceGitExports => ({ space: spaceAggregate.initialState(), exports: {}, syncedCommits: {}, lastSynced: {}, lastImported: {}, importRequests: {}, ...gitSyncOrder.initialState() }),
  evolve(state: SpaceGitExports, event: Folded | { type: string; data: unknown }): SpaceGitExports {
    const e = event as Folded;
    const space = spaceAggregate.evolve(state.space, e as SpaceEvent);
    const ordered = gitSyncOrder.evolve(state, e);
    const next = space === state.space ? ordered : { ...ordered, space };
    const set = (exportId: string, status: GitExportStatus): SpaceGitExports =>
      next.exports[exportId] ? { ...next, exports: { ...next.exports, [exportId]: { ...next.exports[exportId], status } } } : next;
    switch (e.type) {
      case 'GitExportRequested':
        return { ...next, exports: { ...next.exports, [e.data.request.exportId]: { request: e.data.request, status: 'queued', requestedBy: e.data.requestedBy } } };
      case 'GitExportStarted':
        return set(e.data.exportId, 'running');
      case 'GitExportFailed':
        return set(e.data.exportId, 'failed');
      case 'GitExportSkipped':
        return set(e.data.exportId, 'skipped');
      case 'GitExportCompleted': {
        const run = next.exports[e.data.exportId];
        const done = set(e.data.exportId, 'completed');
        if (!run || e.data.standalone) return done;
        return synced(done, run.request, e.data.commit.oid, e.data.revision);
      }
      case 'GitImportRequested': {
        const r = e.data.request;
        return { ...next, importRequests: { ...next.importRequests, [r.importId]: { url: r.url, ref: r.ref, standalone: r.standalone } } };
      }
      case 'GitImportCompleted': {
        const { [e.data.importId]: request, ...rest } = next.importRequests;
        if (!request || e.data.standalone) return { ...next, importRequests: rest };
        const lastImported = { ...next.lastImported, [remoteKey(request.url, request.ref)]: e.data.revision };
        return synced({ ...next, importRequests: rest, lastImported }, request, e.data.commit.oid, e.data.revision);
      }
      default:
        return next;
    }
  },
};

function synced(state: SpaceGitExports, request: { url: string; ref: string }, commit: string, revision: string): SpaceGitExports {
  return {
    ...state,
    syncedCommits: { ...state.syncedCommits, [commit]: { revision } },
    lastSynced: { ...state.lastSynced, [remoteKey(request.url, request.ref)]: commit },
  };
}

/** One remote branch: the credential-free URL and the ref. */
export function remoteKey(url: string, ref: string): string {
  return `${url.replace(/\/+$/, '').replace(/\.git$/, '')} ${ref}`;
}

