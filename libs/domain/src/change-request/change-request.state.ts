import { Aggregate } from '../shared/event';
import { RevisionFileNode, RevisionPageNode } from '../revision/page-tree';
import { ChangeRequestEvent, ChangeRequestStatus } from './change-request.events';

export interface PendingRequest {
  requestId: string;
  at: string;
}

export interface ChangeRequestState {
  exists: boolean;
  changeRequestId?: string;
  spaceId?: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description?: unknown;
  createdBy?: string;
  createdAt?: string;
  updatedAt?: string;
  revisionInitial?: string;
  /** The head: the change request's latest revision. */
  revision?: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  mergedBy?: string;
  mergedAt?: string;
  /** The page tree of `revision` once the change request made one (before that, the head is a space revision). */
  head?: { revision: string; pages: RevisionPageNode[]; files: RevisionFileNode[] };
  /** Users who made content revisions, in order of first contribution. */
  contributors: string[];
  pendingMerge?: PendingRequest;
  pendingUpdate?: PendingRequest;
  /** What updates left with conflict markers; a merge is refused while any of them still holds
   * markers in the head. Kept across later updates: a clean update does not remove markers
   * an earlier one wrote (they are the change request's own lines by then). */
  updateConflicts?: { paths: string[]; pageIds: string[] };
}

function withConflicts(
  known: ChangeRequestState['updateConflicts'],
  paths: readonly string[],
  pageIds: readonly string[],
): ChangeRequestState['updateConflicts'] {
  if (paths.length === 0 && pageIds.length === 0) return known;
  return { paths: [...new Set([...(known?.paths ?? []), ...paths])], pageIds: [...new Set([...(known?.pageIds ?? []), ...pageIds])] };
}

/** The revision both the change request and the space moved on from. */
export function changeRequestBase(state: Pick<ChangeRequestState, 'revisionMergedAncestor' | 'revisionInitial'>): string {
  return (state.revisionMergedAncestor ?? state.revisionInitial)!;
}

export const changeRequestAggregate: Aggregate<ChangeRequestState, ChangeRequestEvent> = {
  initialState: () => ({ exists: false, number: 0, status: 'draft', subject: '', contributors: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'ChangeRequestCreated': {
        const d = event.data;
        return {
          ...state,
          exists: true,
          changeRequestId: d.changeRequestId,
          spaceId: d.spaceId,
          number: d.number,
          status: 'draft',
          subject: d.subject,
          createdBy: d.createdBy,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          revisionInitial: d.revisionInitial,
          revision: d.revisionInitial,
        };
      }
      case 'ChangeRequestDetailsChanged': {
        const d = event.data;
        const next: ChangeRequestState = { ...state, updatedAt: d.at };
        if (d.subject !== undefined) next.subject = d.subject;
        if (d.description !== undefined) next.description = d.description ?? undefined;
        return next;
      }
      case 'ChangeRequestStatusChanged':
        return { ...state, status: event.data.to, updatedAt: event.data.at };
      case 'RevisionCreated': {
        const d = event.data;
        const contributors = d.kind === 'edits' && d.createdBy && !state.contributors.includes(d.createdBy) ? [...state.contributors, d.createdBy] : state.contributors;
        return { ...state, revision: d.revision, head: { revision: d.revision, pages: d.pages, files: d.files }, contributors, updatedAt: d.createdAt };
      }
      case 'ChangeRequestMergeRequested':
        return { ...state, pendingMerge: { requestId: event.data.requestId, at: event.data.at } };
      case 'ChangeRequestMerged': {
        const d = event.data;
        return {
          ...state,
          status: 'merged',
          revisionMerged: d.revisionMerged,
          mergedBy: d.mergedBy,
          mergedAt: d.mergedAt,
          updatedAt: d.mergedAt,
          pendingMerge: undefined,
        };
      }
      case 'ChangeRequestMergeFailed':
        return state.pendingMerge?.requestId === event.data.requestId ? { ...state, pendingMerge: undefined } : state;
      case 'ChangeRequestUpdateRequested':
        return { ...state, pendingUpdate: { requestId: event.data.requestId, at: event.data.at } };
      case 'ChangeRequestUpdated': {
        const d = event.data;
        return {
          ...state,
          revision: d.revision,
          revisionMergedAncestor: d.revisionMergedAncestor,
          updateConflicts: withConflicts(state.updateConflicts, d.conflicts, d.conflictPageIds ?? []),
          updatedAt: d.at,
          pendingUpdate: state.pendingUpdate?.requestId === d.requestId ? undefined : state.pendingUpdate,
        };
      }
      default:
        return state;
    }
  },
};
