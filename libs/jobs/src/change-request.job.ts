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
