import { GitImportRequest, GitSyncEvent } from './git-sync.events';

export type GitImportStatus = 'queued' | 'running' | 'completed' | 'failed' | 'skipped';

/** What the space's stream says of its git imports (folded beside the space's own state). */
export interface GitSyncState {
  imports: Record<string, { request: GitImportRequest; status: GitImportStatus; requestedBy: string }>;
  /** The `timestamp` of the newest import applied, for ordering, as a UTC ISO string. */
  lastAppliedTimestamp?: string;
}

export const gitSyncAggregate = {
  initialState: (): GitSyncState => ({ imports: {} }),
  evolve(state: GitSyncState, event: GitSyncEvent | { type: string; data: unknown }): GitSyncState {
    const e = event as GitSyncEvent;
    const set = (importId: string, status: GitImportStatus): GitSyncState =>
      state.imports[importId] ? { ...state, imports: { ...state.imports, [importId]: { ...state.imports[importId], status } } } : state;
    switch (e.type) {
      case 'GitImportRequested':
        return { ...state, imports: { ...state.imports, [e.data.request.importId]: { request: e.data.request, status: 'queued', requestedBy: e.data.requestedBy } } };
      case 'GitImportStarted':
        return set(e.data.importId, 'running');
      case 'GitImportCompleted': {
        const next = set(e.data.importId, 'completed');
        // Compared as instants: `12:00+05:00` is before `10:00Z`, whatever the strings say.
        const ts = instantOf(state.imports[e.data.importId]?.request.timestamp);
        if (ts && !e.data.standalone && (!next.lastAppliedTimestamp || Date.parse(ts) > Date.parse(next.lastAppliedTimestamp))) {
          next.lastAppliedTimestamp = ts;
        }
        return next;
      }
      case 'GitImportFailed':
        return set(e.data.importId, 'failed');
      case 'GitImportSkipped':
        return set(e.data.importId, 'skipped');
      default:
        return state;
    }
  },
};

/** An import whose trigger is older than the last one applied is skipped (not forced). */
export function isOutOfOrder(state: GitSyncState, request: GitImportRequest): boolean {
  if (request.force || request.standalone || !request.timestamp || !state.lastAppliedTimestamp) return false;
  return Date.parse(request.timestamp) < Date.parse(state.lastAppliedTimestamp);
}

export function isSettled(status: GitImportStatus | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'skipped';
}

/** A request timestamp as a UTC ISO string; undefined when absent or not a date. */
function instantOf(timestamp: string | undefined): string | undefined {
  const ms = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
