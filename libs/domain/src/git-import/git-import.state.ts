import { Aggregate, DomainEvent } from '../shared/event';
import { SpaceEvent } from '../space/space.events';
import { spaceAggregate, SpaceState } from '../space/space.state';
import { GitImportRequest, GitImportEvent } from './git-import.events';

export type GitImportStatus = 'queued' | 'running' | 'completed' | 'failed' | 'skipped';

/** What the space's stream says of its git imports (folded beside the space's own state). */
export interface GitImportState {
  imports: Record<string, { request: GitImportRequest; status: GitImportStatus; requestedBy: string }>;
  /** The `timestamp` of the newest import applied, for ordering, as a UTC ISO string. */
  lastAppliedTimestamp?: string;
}

export const gitImportAggregate = {
  initialState: (): GitImportState => ({ imports: {} }),
  evolve(state: GitImportState, event: GitImportEvent | { type: string; data: unknown }): GitImportState {
    const e = event as GitImportEvent;
    const set = (importId: string, status: GitImportStatus): GitImportState =>
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
export function isOutOfOrder(state: GitImportState, request: GitImportRequest): boolean {
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

/** The space's stream as its git imports see it: the space (live revision, deletion) and the imports. */
export interface SpaceGitImports {
  space: SpaceState;
  git: GitImportState;
}

export const spaceGitImportsAggregate: Aggregate<SpaceGitImports, DomainEvent> = {
  initialState: () => ({ space: spaceAggregate.initialState(), git: gitImportAggregate.initialState() }),
  evolve: (state, event) => ({ space: spaceAggregate.evolve(state.space, event as SpaceEvent), git: gitImportAggregate.evolve(state.git, event) }),
};
