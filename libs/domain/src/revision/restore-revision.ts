import { conflict, notFound } from '../shared/domain-error';
import { SpaceRevisionChanged } from '../space/space.events';
import { SpaceState } from '../space/space.state';
import { RevisionCreated } from './revision.events';

/**
 * A restore: a new revision (kind `rollback`) on top of the live one, holding a past revision's
 * content or one page as it was, becomes the space's live revision. Nothing is rewritten: the
 * restore is one more revision in the history. `onLive` is the live revision it was written on:
 * when the space moved since, the restore would drop those changes, so it is refused (retry).
 */
export function decideRestoreRevision(state: SpaceState, command: { revision: RevisionCreated; onLive: string }): Array<RevisionCreated | SpaceRevisionChanged> {
  if (!state.exists || state.deletedAt) throw notFound('Space not found');
  if (state.revision !== command.onLive) throw conflict('The space changed while the revision was being restored; retry');
  const { data } = command.revision;
  if (data.kind !== 'rollback' || !data.restoredFrom || data.changeRequestId || data.parents[0] !== command.onLive) {
    throw new Error('A restore records a rollback revision of the space on top of its live revision');
  }
  return [command.revision, { type: 'SpaceRevisionChanged', data: { spaceId: data.spaceId, revision: data.revision } }];
}
