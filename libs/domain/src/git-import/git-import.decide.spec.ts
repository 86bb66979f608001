import { DomainEvent } from '../shared/event';
import { RevisionCreated } from '../revision/revision.events';
import { capWarnings, decideGitImport, GitImportCommand, MAX_STORED_WARNINGS } from './git-import.decide';
import { GitImportRequest } from './git-import.events';
import { spaceGitImportsAggregate } from './git-import.state';

const now = new Date('2026-01-01T00:00:00Z');
const at = now.toISOString();
const ctx = { now };
const given = (...events: DomainEvent[]) => events.reduce(spaceGitImportsAggregate.evolve, spaceGitImportsAggregate.initialState());
const when = (command: GitImportCommand, ...events: DomainEvent[]) => decideGitImport(command, given(...events), ctx);

const spaceCreated: DomainEvent = {
  type: 'SpaceCreated',
  data: { spaceId: 's', organizationId: 'o', title: 'S', visibility: 'private', editMode: 'live', defaultLevel: 'inherit', mergeRules: { type: 'inherit' }, initialRevision: 'r0', createdBy: 'u', createdAt: at },
};
const request = (importId: string, extra: Partial<GitImportRequest> = {}): GitImportRequest => ({ importId, url: 'https://example.com/r.git', ref: 'refs/heads/main', hasCredentials: false, ...extra });
const requested = (importId: string, extra: Partial<GitImportRequest> = {}): DomainEvent => ({
  type: 'GitImportRequested',
  data: { spaceId: 's', request: request(importId, extra), requestedBy: 'u', at },
});
const started = (importId: string): DomainEvent => ({ type: 'GitImportStarted', data: { spaceId: 's', importId, at } });
const completed = (importId: string): DomainEvent => ({
  type: 'GitImportCompleted',
  data: { spaceId: 's', importId, revision: 'r1', commit: { oid: 'c', message: 'm' }, standalone: false, warnings: [], at },
});
const revision: RevisionCreated = {
  type: 'RevisionCreated',
  data: { spaceId: 's', revision: 'r2', parents: ['r0'], kind: 'import', pages: [], files: [], createdBy: 'u', createdAt: at },
};
const complete = (importId: string, extra: Partial<Extract<GitImportCommand, { type: 'CompleteGitImport' }>> = {}): GitImportCommand => ({
  type: 'CompleteGitImport',
  importId,
  revision: 'r2',
  created: revision,
  commit: { oid: 'c2', message: 'Import' },
  warnings: [],
  ...extra,
});

describe('git import decisions', () => {
  it('given a space, when an import is requested, then the request is recorded as given (no credentials in it)', () => {
    const events = when({ type: 'RequestGitImport', spaceId: 's', request: request('i1'), requestedBy: 'u' }, spaceCreated);
    expect(events).toEqual([{ type: 'GitImportRequested', data: { spaceId: 's', request: request('i1'), requestedBy: 'u', at } }]);
  });

  describe('start', () => {
    it('given a queued import, when its job starts, then it is started; a running one (a job run again) records nothing', () => {
      expect(when({ type: 'StartGitImport', importId: 'i1' }, spaceCreated, requested('i1'))).toEqual([{ type: 'GitImportStarted', data: { spaceId: 's', importId: 'i1', at } }]);
      expect(when({ type: 'StartGitImport', importId: 'i1' }, spaceCreated, requested('i1'), started('i1'))).toEqual([]);
    });

    it('given an import applied at t2, when one triggered at t1 < t2 starts, then it is skipped as older, naming the newer one', () => {
      const events = when({ type: 'StartGitImport', importId: 'i2' }, spaceCreated, requested('i1', { timestamp: '2026-01-02T00:00:00Z' }), completed('i1'), requested('i2', { timestamp: '2026-01-01T00:00:00Z' }));
      expect(events).toEqual([
        { type: 'GitImportSkipped', data: { spaceId: 's', importId: 'i2', reason: 'A newer import or export (triggered at 2026-01-02T00:00:00.000Z) was already applied', at } },
      ]);
    });

    it('given an export applied at t2, when an import triggered at t1 < t2 starts, then it is skipped as older; triggered after t2, it starts', () => {
      const exportRequested: DomainEvent = {
        type: 'GitExportRequested',
        data: { spaceId: 's', request: { exportId: 'e1', url: 'https://example.com/r.git', ref: 'refs/heads/main', commitMessage: 'm', timestamp: '2026-01-02T00:00:00Z', hasCredentials: false }, requestedBy: 'u', at },
      };
      const exported: DomainEvent = { type: 'GitExportCompleted', data: { spaceId: 's', exportId: 'e1', revision: 'r0', commit: { oid: 'c1', message: 'm' }, pushed: true, standalone: false, at } };
      const older = when({ type: 'StartGitImport', importId: 'i1' }, spaceCreated, exportRequested, exported, requested('i1', { timestamp: '2026-01-01T23:00:00Z' }));
      expect(older).toEqual([
        { type: 'GitImportSkipped', data: { spaceId: 's', importId: 'i1', reason: 'A newer import or export (triggered at 2026-01-02T00:00:00.000Z) was already applied', at } },
      ]);
      const newer = when({ type: 'StartGitImport', importId: 'i1' }, spaceCreated, exportRequested, exported, requested('i1', { timestamp: '2026-01-02T01:00:00Z' }));
      expect(newer).toEqual([{ type: 'GitImportStarted', data: { spaceId: 's', importId: 'i1', at } }]);
    });

    it('given an export that failed or was standalone, when an older import starts, then it starts (only applied runs order)', () => {
      const exportRequested = (standalone: boolean): DomainEvent => ({
        type: 'GitExportRequested',
        data: { spaceId: 's', request: { exportId: 'e1', url: 'https://example.com/r.git', ref: 'refs/heads/main', commitMessage: 'm', timestamp: '2026-01-02T00:00:00Z', standalone, hasCredentials: false }, requestedBy: 'u', at },
      });
      const failed: DomainEvent = { type: 'GitExportFailed', data: { spaceId: 's', exportId: 'e1', code: 'auth_failed', message: 'm', at } };
      const standaloneDone: DomainEvent = { type: 'GitExportCompleted', data: { spaceId: 's', exportId: 'e1', revision: 'r0', commit: { oid: 'c1', message: 'm' }, pushed: true, standalone: true, at } };
      const start = { type: 'StartGitImport' as const, importId: 'i1' };
      const older = requested('i1', { timestamp: '2026-01-01T00:00:00Z' });
      expect(when(start, spaceCreated, exportRequested(false), failed, older)).toEqual([{ type: 'GitImportStarted', data: { spaceId: 's', importId: 'i1', at } }]);
      expect(when(start, spaceCreated, exportRequested(true), standaloneDone, older)).toEqual([{ type: 'GitImportStarted', data: { spaceId: 's', importId: 'i1', at } }]);
    });

    it('given a deleted space, when an import starts, then it fails with space_deleted', () => {
      const deleted: DomainEvent = { type: 'SpaceDeleted', data: { spaceId: 's', at } };
      const events = when({ type: 'StartGitImport', importId: 'i1' }, spaceCreated, requested('i1'), deleted);
      expect(events).toEqual([{ type: 'GitImportFailed', data: { spaceId: 's', importId: 'i1', code: 'space_deleted', message: 'The space was deleted before the import ran', at } }]);
    });

    it('given no such import, when a job starts it, then it is refused as not found', () => {
      expect(() => when({ type: 'StartGitImport', importId: 'nope' }, spaceCreated)).toThrow(/No import nope was requested for space s/);
    });
  });

  describe('complete', () => {
    it('given a running import, when it completes with a new revision, then the revision is recorded, made live, and the import completed', () => {
      const events = when(complete('i1'), spaceCreated, requested('i1'), started('i1'));
      expect(events.map((e) => e.type)).toEqual(['RevisionCreated', 'SpaceRevisionChanged', 'GitImportCompleted']);
      expect(events[0]).toBe(revision);
      expect(events[1].data).toEqual({ spaceId: 's', revision: 'r2' });
      expect(events[2].data).toEqual({ spaceId: 's', importId: 'i1', revision: 'r2', commit: { oid: 'c2', message: 'Import' }, standalone: false, warnings: [], at });
    });

    it('given a standalone import, when it completes, then the revision is recorded but the live one stays', () => {
      const events = when(complete('i1'), spaceCreated, requested('i1', { standalone: true }), started('i1'));
      expect(events.map((e) => e.type)).toEqual(['RevisionCreated', 'GitImportCompleted']);
      expect(events[1].data).toMatchObject({ standalone: true, revision: 'r2' });
    });

    it('given a repository holding what the space shows, when it completes, then only the completion is recorded, on the live revision', () => {
      const events = when(complete('i1', { created: undefined, revision: 'r0' }), spaceCreated, requested('i1'), started('i1'));
      expect(events).toEqual([{ type: 'GitImportCompleted', data: expect.objectContaining({ importId: 'i1', revision: 'r0' }) }]);
    });

    it('keeps at most MAX_STORED_WARNINGS warnings, and one that counts the rest', () => {
      const warnings = Array.from({ length: 140 }, (_, i) => `w${i}`);
      const [, , done] = when(complete('i1', { warnings }), spaceCreated, requested('i1'), started('i1'));
      expect((done.data as { warnings: string[] }).warnings).toEqual(capWarnings(warnings));
      expect((done.data as { warnings: string[] }).warnings).toHaveLength(MAX_STORED_WARNINGS + 1);
    });

    it('given an import that already settled (a retried completion), when it completes again, then nothing is recorded', () => {
      expect(when(complete('i1'), spaceCreated, requested('i1'), completed('i1'))).toEqual([]);
    });
  });

  describe('fail', () => {
    it('given a running import, when it fails, then the failure is recorded with its code and message', () => {
      const events = when({ type: 'FailGitImport', importId: 'i1', code: 'ref_not_found', message: 'No such ref' }, spaceCreated, requested('i1'), started('i1'));
      expect(events).toEqual([{ type: 'GitImportFailed', data: { spaceId: 's', importId: 'i1', code: 'ref_not_found', message: 'No such ref', at } }]);
    });

    it('given a settled import or none, when a job fails, then nothing is recorded', () => {
      const fail: GitImportCommand = { type: 'FailGitImport', importId: 'i1', code: 'internal', message: 'x' };
      expect(when(fail, spaceCreated, requested('i1'), completed('i1'))).toEqual([]);
      expect(when(fail, spaceCreated)).toEqual([]);
    });
  });
});
