import { isOutOfOrder } from '../git-run/git-sync-order';
import { gitImportAggregate } from './git-import.state';
import { GitImportRequest, GitImportEvent } from './git-import.events';

const request = (importId: string, timestamp?: string, extra: Partial<GitImportRequest> = {}): GitImportRequest => ({
  importId,
  url: 'https://example.com/r.git',
  ref: 'refs/heads/main',
  timestamp,
  hasCredentials: false,
  ...extra,
});
const given = (events: GitImportEvent[]) => events.reduce(gitImportAggregate.evolve, gitImportAggregate.initialState());
const at = '2026-01-01T00:00:00Z';

describe('git import ordering', () => {
  it('given an import applied at t2, when one triggered at t1 < t2 comes, then it is out of order', () => {
    const state = given([
      { type: 'GitImportRequested', data: { spaceId: 's', request: request('i1', '2026-01-02T00:00:00Z'), requestedBy: 'u', at } },
      { type: 'GitImportCompleted', data: { spaceId: 's', importId: 'i1', revision: 'r', commit: { oid: 'c', message: 'm' }, standalone: false, warnings: [], at } },
    ]);
    expect(state.lastAppliedTimestamp).toBe('2026-01-02T00:00:00.000Z');
    expect(isOutOfOrder(state, request('i2', '2026-01-01T00:00:00Z'))).toBe(true);
    expect(isOutOfOrder(state, request('i3', '2026-01-03T00:00:00Z'))).toBe(false);
    expect(isOutOfOrder(state, request('i4', '2026-01-01T00:00:00Z', { force: true }))).toBe(false);
  });

  it('compares timestamps with offsets as instants and keeps the mark in UTC', () => {
    const completed = (importId: string): GitImportEvent => ({
      type: 'GitImportCompleted',
      data: { spaceId: 's', importId, revision: 'r', commit: { oid: 'c', message: 'm' }, standalone: false, warnings: [], at },
    });
    const state = given([
      { type: 'GitImportRequested', data: { spaceId: 's', request: request('i1', '2026-01-01T12:00:00+05:00'), requestedBy: 'u', at } },
      completed('i1'),
      { type: 'GitImportRequested', data: { spaceId: 's', request: request('i2', '2026-01-01T10:00:00Z'), requestedBy: 'u', at } },
      completed('i2'),
    ]);
    // 12:00+05:00 is 07:00Z: the 10:00Z import is the newer one.
    expect(state.lastAppliedTimestamp).toBe('2026-01-01T10:00:00.000Z');
    expect(isOutOfOrder(state, request('i3', '2026-01-01T14:00:00+05:00'))).toBe(true);
    expect(isOutOfOrder(state, request('i4', '2026-01-01T06:00:00-05:00'))).toBe(false);
  });

  it('standalone imports do not move the ordering mark', () => {
    const state = given([
      { type: 'GitImportRequested', data: { spaceId: 's', request: request('i1', '2026-01-05T00:00:00Z', { standalone: true }), requestedBy: 'u', at } },
      { type: 'GitImportCompleted', data: { spaceId: 's', importId: 'i1', revision: 'r', commit: { oid: 'c', message: 'm' }, standalone: true, warnings: [], at } },
    ]);
    expect(state.lastAppliedTimestamp).toBeUndefined();
    expect(state.imports.i1.status).toBe('completed');
  });
});
