import { RevisionCreated } from './revision.events';
import { decideRestoreRevision } from './restore-revision';
import { spaceAggregate, SpaceState } from '../space/space.state';

const space = (over: Partial<SpaceState> = {}): SpaceState => ({ ...spaceAggregate.initialState(), exists: true, spaceId: 's1', revision: 'live', ...over });
const rollback = (over: Partial<RevisionCreated['data']> = {}): RevisionCreated => ({
  type: 'RevisionCreated',
  data: { spaceId: 's1', revision: 'new', parents: ['live'], kind: 'rollback', pages: [], files: [], restoredFrom: { revision: 'old' }, createdAt: '2026-11-24T00:00:00.000Z', ...over },
});

describe('decideRestoreRevision', () => {
  it('given the live revision it was written on, records the rollback revision and makes it live', () => {
    expect(decideRestoreRevision(space(), { revision: rollback(), onLive: 'live' })).toEqual([rollback(), { type: 'SpaceRevisionChanged', data: { spaceId: 's1', revision: 'new' } }]);
  });

  it('refuses when the space moved since (the restore would drop those changes): a conflict to retry', () => {
    expect(() => decideRestoreRevision(space({ revision: 'newer' }), { revision: rollback(), onLive: 'live' })).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it('a space that does not exist or is in the trash is not found', () => {
    expect(() => decideRestoreRevision(space({ exists: false }), { revision: rollback(), onLive: 'live' })).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => decideRestoreRevision(space({ deletedAt: '2026-11-24T00:00:00.000Z' }), { revision: rollback(), onLive: 'live' })).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('records only a rollback of the space on top of its live revision', () => {
    expect(() => decideRestoreRevision(space(), { revision: rollback({ kind: 'edits' }), onLive: 'live' })).toThrow();
    expect(() => decideRestoreRevision(space(), { revision: rollback({ changeRequestId: 'cr' }), onLive: 'live' })).toThrow();
    expect(() => decideRestoreRevision(space(), { revision: rollback({ parents: ['other'] }), onLive: 'live' })).toThrow();
  });
});
