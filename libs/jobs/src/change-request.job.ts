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

/**
 * The events a merge or update records: whoever answers for one (the job, or the API finding it
 * already done) waits until the read models that follow them have applied them.
 */
export const CHANGE_REQUEST_JOB_EVENTS = ['RevisionCreated', 'SpaceRevisionChanged', 'ChangeRequestMerged', 'ChangeRequestMergeFailed', 'ChangeRequestUpdated'];
