import { notFound } from '../shared/domain-error';
import { Aggregate, DecideContext } from '../shared/event';
import { RevisionCreated } from '../revision/revision.events';
import { SpaceEvent, SpaceRevisionChanged } from '../space/space.events';
import { spaceAggregate, SpaceState } from '../space/space.state';
import { ChangeRequestNumberAllocated } from './change-request.events';

/** The space stream as change requests see it: the space, the last number handed out, and merges. */
export interface SpaceForChangeRequests {
  space: SpaceState;
  lastNumber: number;
  /** Space revisions made by merging a change request, by change request id. */
  mergedRevisions: Record<string, { revision: string; parents: string[] }>;
}

type SpaceStreamEvent = SpaceEvent | ChangeRequestNumberAllocated | RevisionCreated;

export const spaceForChangeRequestsAggregate: Aggregate<SpaceForChangeRequests, SpaceStreamEvent> = {
  initialState: () => ({ space: spaceAggregate.initialState(), lastNumber: 0, mergedRevisions: {} }),
  evolve(state, event) {
    if (event.type === 'ChangeRequestNumberAllocated') return { ...state, lastNumber: Math.max(state.lastNumber, event.data.number) };
    if (event.type === 'RevisionCreated') {
      const d = event.data;
      if (d.kind !== 'merge' || !d.mergedFrom) return state;
      return { ...state, mergedRevisions: { ...state.mergedRevisions, [d.mergedFrom]: { revision: d.revision, parents: d.parents } } };
    }
    return { ...state, space: spaceAggregate.evolve(state.space, event as SpaceEvent) };
  },
};

/** The next per-space number for a new change request. */
export function decideChangeRequestNumber(
  state: SpaceForChangeRequests,
  command: { changeRequestId: string },
  ctx: DecideContext,
): ChangeRequestNumberAllocated[] {
  if (!state.space.exists || state.space.deletedAt) throw notFound('Space not found');
  return [
    {
      type: 'ChangeRequestNumberAllocated',
      data: { spaceId: state.space.spaceId!, changeRequestId: command.changeRequestId, number: state.lastNumber + 1, at: ctx.now.toISOString() },
    },
  ];
}

/** The events that make a merge revision the space's live one (appended with the space's expected version). */
export function spaceMergeEvents(revision: RevisionCreated): [RevisionCreated, SpaceRevisionChanged] {
  return [revision, { type: 'SpaceRevisionChanged', data: { spaceId: revision.data.spaceId, revision: revision.data.revision } }];
}
