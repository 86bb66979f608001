import { gitSyncOrder, GitSyncOrder, isOutOfOrder } from './git-sync-order';

const at = '2026-01-01T00:00:00Z';
const run = { url: 'https://example.com/r.git', ref: 'refs/heads/main', hasCredentials: false };
type Event = { type: string; data: unknown };
const given = (...events: Event[]): GitSyncOrder => events.reduce((s, e) => gitSyncOrder.evolve(s, e), gitSyncOrder.initialState());
const importRequested = (importId: string, timestamp: string, extra = {}): Event => ({ type: 'GitImportRequested', data: { spaceId: 's', request: { ...run, importId, timestamp, ...extra }, requestedBy: 'u', at } });
const exportRequested = (exportId: string, timestamp: string, extra = {}): Event => ({
  type: 'GitExportRequested',
  data: { spaceId: 's', request: { ...run, exportId, commitMessage: 'm', timestamp, ...extra }, requestedBy: 'u', at },
});
const imported = (importId: string, standalone = false): Event => ({ type: 'GitImportCompleted', data: { spaceId: 's', importId, revision: 'r', commit: { oid: 'c', message: 'm' }, standalone, warnings: [], at } });
const exported = (exportId: string, standalone = false): Event => ({ type: 'GitExportCompleted', data: { spaceId: 's', exportId, revision: 'r', commit: { oid: 'c', message: 'm' }, pushed: true, standalone, at } });

describe('the order of a space’s imports and exports (by timestamp, together)', () => {
  it('given an export applied at t2, when an import triggered at t1 < t2 comes, then it is out of order; one after t2 is not', () => {
    const order = given(exportRequested('e1', '2026-01-02T00:00:00Z'), exported('e1'));
    expect(order.lastAppliedTimestamp).toBe('2026-01-02T00:00:00.000Z');
    expect(isOutOfOrder(order, { ...run, timestamp: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(isOutOfOrder(order, { ...run, timestamp: '2026-01-03T00:00:00Z' })).toBe(false);
  });

  it('given an import applied at t2, when an export triggered at t1 < t2 comes, then it is out of order unless forced', () => {
    const order = given(importRequested('i1', '2026-01-02T00:00:00Z'), imported('i1'));
    expect(isOutOfOrder(order, { ...run, timestamp: '2026-01-01T00:00:00Z' })).toBe(true);
    expect(isOutOfOrder(order, { ...run, timestamp: '2026-01-01T00:00:00Z', force: true })).toBe(false);
  });

  it('given runs applied out of their trigger order, then the mark is the newest timestamp, compared as instants', () => {
    // The export (07:00Z, written with an offset) completes after the import (10:00Z): the mark stays at 10:00Z.
    const order = given(importRequested('i1', '2026-01-01T10:00:00Z'), exportRequested('e1', '2026-01-01T12:00:00+05:00'), imported('i1'), exported('e1'));
    expect(order.lastAppliedTimestamp).toBe('2026-01-01T10:00:00.000Z');
    expect(order.pendingTimestamps).toEqual({});
  });

  it('given runs that failed, were skipped or were standalone, then they do not move the mark', () => {
    const order = given(
      exportRequested('e1', '2026-01-05T00:00:00Z'),
      { type: 'GitExportFailed', data: { spaceId: 's', exportId: 'e1', code: 'auth_failed', message: 'm', at } },
      importRequested('i1', '2026-01-06T00:00:00Z'),
      { type: 'GitImportSkipped', data: { spaceId: 's', importId: 'i1', reason: 'r', at } },
      exportRequested('e2', '2026-01-07T00:00:00Z', { standalone: true }),
      exported('e2', true),
    );
    expect(order.lastAppliedTimestamp).toBeUndefined();
    expect(order.pendingTimestamps).toEqual({});
    expect(isOutOfOrder(order, { ...run, timestamp: '2026-01-01T00:00:00Z' })).toBe(false);
  });

  it('given a request without a timestamp, then it is never out of order', () => {
    const order = given(importRequested('i1', '2026-01-02T00:00:00Z'), imported('i1'));
    expect(isOutOfOrder(order, run)).toBe(false);
  });
});
