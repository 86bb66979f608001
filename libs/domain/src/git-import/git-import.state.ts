import { Aggregate, DomainEvent } from '../shared/event';
import { SpaceEvent } from '../space/space.events';
import { spaceAggregate, SpaceState } from '../space/space.state';
import { GitRunStatus } from '../git-run/git-run';
import { gitSyncOrder, GitSyncOrder } from '../git-run/git-sync-order';
import { GitImportRequest, GitImportEvent } from './git-import.events';

export type GitImportStatus = GitRunStatus;

/** What the space's stream says of its git imports (folded beside the space's own state), with
 * the order of its imports and exports. */
export interface GitImportState extends GitSyncOrder {
  imports: Record<string, { request: GitImportRequest; status: GitImportStatus; requestedBy: string }>;
}

export const gitImportAggregate = {
  initialState: (): GitImportState => ({ imports: {}, ...gitSyncOrder.initialState() }),
  evolve(state: GitImportState, event: GitImportEvent | { type: string; data: unknown }): GitImportState {
    const e = event as GitImportEvent;
    const next = gitSyncOrder.evolve(state, e);
    const set = (importId: string, status: GitImportStatus): GitImportState =>
      next.imports[importId] ? { ...next, imports: { ...next.imports, [importId]: { ...next.imports[importId], status } } } : next;
    switch (e.type) {
      case 'GitImportRequested':
        return { ...next, imports: { ...next.imports, [e.data.request.importId]: { request: e.data.request, status: 'queued', requestedBy: e.data.requestedBy } } };
      case 'GitImportStarted':
        return set(e.data.importId, 'running');
      case 'GitImportCompleted':
        return set(e.data.importId, 'completed');
      case 'GitImportFailed':
        return set(e.data.importId, 'failed');
      case 'GitImportSkipped':
        return set(e.data.importId, 'skipped');
      default:
        return next;
    }
  },
};

/** The space's stream as its git imports see it: the space (live revision, deletion) and the imports. */
export interface SpaceGitImports {
  space: SpaceState;
  git: GitImportState;
}

export const spaceGitImportsAggregate: Aggregate<SpaceGitImports, DomainEvent> = {
  initialState: () => ({ space: spaceAggregate.initialState(), git: gitImportAggregate.initialState() }),
  evolve: (state, event) => ({ space: spaceAggregate.evolve(state.space, event as SpaceEvent), git: gitImportAggregate.evolve(state.git, event) }),
};
