import {
  changeRequestAggregate,
  ChangeRequestEvent,
  ChangeRequestState,
  changeRequestStream,
  RevisionCreated,
  SpaceForChangeRequests,
  spaceForChangeRequestsAggregate,
  spaceStream,
} from '@quire/domain';
import { EventStore, ExpectedVersion } from '@quire/event-store/event-store.port';
import type { RevisionTree } from '@quire/content/edit';

/** The job a merge or update request becomes: ids only, the request itself is an event. */
export interface ChangeRequestJob {
  spaceId: string;
  changeRequestId: string;
  /** The `requestId` of the ChangeRequestMergeRequested / ChangeRequestUpdateRequested event. */
  requestId: string;
  actorId: string;
}

/** What a merge or update job answers; expected refusals are results, not failures (no retry). */
export type ChangeRequestJobResult =
  | { ok: true; revision: string; result: 'merge' | 'update' | 'conflicts'; conflicts?: string[] }
  | { ok: false; code: 'conflict' | 'unprocessable' | 'not_found'; message: string };

export interface LoadedChangeRequest {
  state: ChangeRequestState;
  version: ExpectedVersion;
  /** Trees of the change request's own revisions, by revision id. */
  trees: Map<string, RevisionTree>;
}

export interface LoadedSpace {
  state: SpaceForChangeRequests;
  version: ExpectedVersion;
  /** Trees of the space's revisions (live ones, merges, imports), by revision id. */
  trees: Map<string, RevisionTree>;
}

export async function loadChangeRequest(events: EventStore, changeRequestId: string): Promise<LoadedChangeRequest> {
  const recorded = await events.readStream(changeRequestStream(changeRequestId));
  let state = changeRequestAggregate.initialState();
  const trees = new Map<string, RevisionTree>();
  for (const e of recorded) {
    state = changeRequestAggregate.evolve(state, { type: e.type, data: e.data } as ChangeRequestEvent);
    if (e.type === 'RevisionCreated') addTree(trees, e.data as RevisionCreated['data']);
  }
  return { state, version: recorded.length ? recorded[recorded.length - 1].streamVersion : 'no_stream', trees };
}

export async function loadSpace(events: EventStore, spaceId: string): Promise<LoadedSpace> {
  const recorded = await events.readStream(spaceStream(spaceId));
  let state = spaceForChangeRequestsAggregate.initialState();
  const trees = new Map<string, RevisionTree>();
  for (const e of recorded) {
    state = spaceForChangeRequestsAggregate.evolve(state, { type: e.type, data: e.data } as any);
    if (e.type === 'RevisionCreated') addTree(trees, e.data as RevisionCreated['data']);
  }
  return { state, version: recorded.length ? recorded[recorded.length - 1].streamVersion : 'no_stream', trees };
}

function addTree(trees: Map<string, RevisionTree>, d: RevisionCreated['data']): void {
  trees.set(d.revision, { revision: d.revision, pages: d.pages, files: d.files });
}

/** A revision's tree from the change request's own revisions or the space's. */
export function treeOf(revision: string, ...sources: Array<Map<string, RevisionTree>>): RevisionTree | undefined {
  for (const source of sources) {
    const tree = source.get(revision);
    if (tree) return tree;
  }
  return undefined;
}

/** The author written into commits made for a user. */
export function commitAuthor(actorId: string): { name: string; email: string } {
  return { name: actorId, email: `${actorId}@users.quire.invalid` };
}
