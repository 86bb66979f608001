import { instantOf, GitRunRequest } from './git-run';

/**
 * The order of a space's git runs: imports and exports together, by their request's
 * `timestamp`, as GitBook orders them. A linked (not standalone) run that completes sets the
 * mark; a later request triggered before the mark is skipped unless forced.
 */
export interface GitSyncOrder {
  /** UTC ISO string of the newest `timestamp` among the imports and exports applied. */
  lastAppliedTimestamp?: string;
  /** Run id (import or export) -> its request's timestamp, for linked requests not yet settled. */
  pendingTimestamps: Record<string, string>;
}

type RunEvent =
  | { type: 'GitImportRequested' | 'GitExportRequested'; data: { request: GitRunRequest & { importId?: string; exportId?: string } } }
  | { type: 'GitImportCompleted' | 'GitImportFailed' | 'GitImportSkipped'; data: { importId: string; standalone?: boolean } }
  | { type: 'GitExportCompleted' | 'GitExportFailed' | 'GitExportSkipped'; data: { exportId: string; standalone?: boolean } };

export const gitSyncOrder = {
  initialState: (): GitSyncOrder => ({ pendingTimestamps: {} }),
  /** Folds what orders runs; any other event leaves the order as it is (the same object). */
  evolve<S extends GitSyncOrder>(state: S, event: { type: string; data: unknown }): S {
    const e = event as RunEvent;
    switch (e.type) {
      case 'GitImportRequested':
      case 'GitExportRequested': {
        const { request } = e.data;
        const ts = instantOf(request.timestamp);
        const id = request.importId ?? request.exportId;
        if (!ts || !id || request.standalone) return state;
        return { ...state, pendingTimestamps: { ...state.pendingTimestamps, [id]: ts } };
      }
      case 'GitImportCompleted':
      case 'GitExportCompleted':
      case 'GitImportFailed':
      case 'GitExportFailed':
      case 'GitImportSkipped':
      case 'GitExportSkipped': {
        const id = 'importId' in e.data ? e.data.importId : e.data.exportId;
        const ts = state.pendingTimestamps[id];
        if (ts === undefined) return state;
        const { [id]: _settled, ...pendingTimestamps } = state.pendingTimestamps;
        const applied = (e.type === 'GitImportCompleted' || e.type === 'GitExportCompleted') && !e.data.standalone;
        // Compared as instants: `12:00+05:00` is before `10:00Z`, whatever the strings say.
        const newer = applied && (!state.lastAppliedTimestamp || Date.parse(ts) > Date.parse(state.lastAppliedTimestamp));
        return { ...state, pendingTimestamps, ...(newer ? { lastAppliedTimestamp: ts } : {}) };
      }
      default:
        return state;
    }
  },
};

/** A request triggered before the newest import or export applied is out of order (skipped), unless forced. */
export function isOutOfOrder(order: GitSyncOrder, request: GitRunRequest): boolean {
  if (request.force || request.standalone || !order.lastAppliedTimestamp) return false;
  const ts = instantOf(request.timestamp);
  return !!ts && Date.parse(ts) < Date.parse(order.lastAppliedTimestamp);
}

/** Why a run out of order was skipped, for the user. */
export function outOfOrderReason(order: GitSyncOrder): string {
  return `A newer import or export (triggered at ${order.lastAppliedTimestamp}) was already applied`;
}
