import { decideGitExport, GitExportCommand, planExport } from './git-export.decide';
import { GitExportRequest } from './git-export.events';
import { gitExportAggregate } from './git-export.state';

const at = '2026-01-01T00:00:00.000Z';
const ctx = { now: new Date('2026-02-01T00:00:00Z') };
const URL = 'https://git.example.com/docs.git';

const request = (exportId: string, extra: Partial<GitExportRequest> = {}): GitExportRequest => ({
  exportId,
  url: URL,
  ref: 'refs/heads/main',
  commitMessage: 'Update docs',
  hasCredentials: false,
  ...extra,
});

const spaceCreated = {
  type: 'SpaceCreated',
  data: { spaceId: 's1', organizationId: 'o', title: 'Docs', editMode: 'live', defaultLevel: 'inherit', mergeRules: { type: 'inherit' }, initialRevision: 'r0', createdBy: 'u', at },
};
const requested = (r: GitExportRequest) => ({ type: 'GitExportRequested', data: { spaceId: 's1', request: r, requestedBy: 'u', at } });
const exported = (exportId: string, commit: string, revision: string, standalone = false) => ({
  type: 'GitExportCompleted',
  data: { spaceId: 's1', exportId, revision, commit: { oid: commit, message: 'm' }, pushed: true, standalone, at },
});
const imported = (importId: string, commit: string, revision: string, extra: { timestamp?: string; ref?: string; standalone?: boolean } = {}) => [
  { type: 'GitImportRequested', data: { spaceId: 's1', request: { importId, url: URL, ref: extra.ref ?? 'refs/heads/main', hasCredentials: false, ...extra }, requestedBy: 'u', at } },
  { type: 'GitImportCompleted', data: { spaceId: 's1', importId, revision, commit: { oid: commit, message: 'm' }, standalone: !!extra.standalone, warnings: [], at } },
];

const given = (events: Array<{ type: string; data: unknown }>) => events.reduce(gitExportAggregate.evolve, gitExportAggregate.initialState());
const when = (events: Array<{ type: string; data: unknown }>, command: GitExportCommand) => decideGitExport(command, given(events), ctx);

describe('git export decisions', () => {
  it('given a space, when an export is requested, then it is recorded as asked (no credentials in the request)', () => {
    const events = when([spaceCreated], { type: 'RequestGitExport', spaceId: 's1', request: request('e1'), requestedBy: 'u' });
    expect(events).toEqual([{ type: 'GitExportRequested', data: { spaceId: 's1', request: request('e1'), requestedBy: 'u', at: '2026-02-01T00:00:00.000Z' } }]);
  });

  it('given a queued export, when the job starts it, then it is started; started again, nothing more', () => {
    const history = [spaceCreated, requested(request('e1'))];
    expect(when(history, { type: 'StartGitExport', exportId: 'e1' }).map((e) => e.type)).toEqual(['GitExportStarted']);
    const started = [...history, { type: 'GitExportStarted', data: { spaceId: 's1', exportId: 'e1', at } }];
    expect(when(started, { type: 'StartGitExport', exportId: 'e1' })).toEqual([]);
  });

  it('given an import applied at t2, when an export triggered at t1 < t2 starts, then it is skipped and says why', () => {
    const history = [spaceCreated, ...imported('i1', 'c1', 'r1', { timestamp: '2026-01-02T00:00:00Z' }), requested(request('e1', { timestamp: '2026-01-01T00:00:00Z' }))];
    const [skipped] = when(history, { type: 'StartGitExport', exportId: 'e1' });
    expect(skipped).toMatchObject({ type: 'GitExportSkipped', data: { exportId: 'e1', reason: expect.stringContaining('2026-01-02T00:00:00.000Z') } });
  });

  it('given an export applied at t2 (offset), when one triggered earlier starts, then it is skipped; forced, it starts', () => {
    const history = [spaceCreated, requested(request('e1', { timestamp: '2026-01-02T12:00:00+05:00' })), exported('e1', 'c1', 'r1')];
    const older = [...history, requested(request('e2', { timestamp: '2026-01-02T06:00:00Z' }))];
    expect(when(older, { type: 'StartGitExport', exportId: 'e2' })[0].type).toBe('GitExportSkipped');
    const forced = [...history, requested(request('e3', { timestamp: '2026-01-02T06:00:00Z', force: true }))];
    expect(when(forced, { type: 'StartGitExport', exportId: 'e3' })[0].type).toBe('GitExportStarted');
    const newer = [...history, requested(request('e4', { timestamp: '2026-01-02T08:00:00Z' }))];
    expect(when(newer, { type: 'StartGitExport', exportId: 'e4' })[0].type).toBe('GitExportStarted');
  });

  it('given a deleted space, when the export starts, then it fails with space_deleted', () => {
    const history = [spaceCreated, { type: 'SpaceDeleted', data: { spaceId: 's1', at } }, requested(request('e1'))];
    expect(when(history, { type: 'StartGitExport', exportId: 'e1' })).toMatchObject([{ type: 'GitExportFailed', data: { code: 'space_deleted' } }]);
  });

  it('given a settled export, when it completes or fails again, then nothing is recorded', () => {
    const history = [spaceCreated, requested(request('e1')), exported('e1', 'c1', 'r1')];
    expect(when(history, { type: 'CompleteGitExport', exportId: 'e1', revision: 'r1', commit: { oid: 'c1', message: 'm' }, pushed: true })).toEqual([]);
    expect(when(history, { type: 'FailGitExport', exportId: 'e1', code: 'remote_error', message: 'x' })).toEqual([]);
  });

  it('given no such export, when it is started, then not found; when a failure comes, nothing', () => {
    expect(() => when([spaceCreated], { type: 'StartGitExport', exportId: 'nope' })).toThrow(/No export nope/);
    expect(when([spaceCreated], { type: 'FailGitExport', exportId: 'nope', code: 'internal', message: 'x' })).toEqual([]);
  });

  it('given a running standalone export, when it completes, then it is completed as standalone and links nothing', () => {
    const history = [spaceCreated, requested(request('e1', { standalone: true, timestamp: '2026-01-05T00:00:00Z' }))];
    const events = when(history, { type: 'CompleteGitExport', exportId: 'e1', revision: 'r1', commit: { oid: 'c1', message: 'm' }, pushed: true });
    expect(events).toMatchObject([{ type: 'GitExportCompleted', data: { standalone: true, pushed: true } }]);
    const after = given([...history, ...events]);
    expect(after.syncedCommits).toEqual({});
    expect(after.lastAppliedTimestamp).toBeUndefined();
  });
});

describe('where an export goes (planExport)', () => {
  it('creates a branch that does not exist', () => {
    expect(planExport(given([spaceCreated]), request('e1'), undefined)).toEqual({ kind: 'create-branch' });
  });

  it('builds on a commit the space imported, with the revision that holds its content', () => {
    const state = given([spaceCreated, ...imported('i1', 'c1', 'r1')]);
    expect(planExport(state, request('e1'), 'c1')).toEqual({ kind: 'on-top', parent: 'c1', base: 'r1', layout: 'r1' });
  });

  it('builds on the commit the space last exported', () => {
    const state = given([spaceCreated, ...imported('i1', 'c1', 'r1'), requested(request('e1')), exported('e1', 'c2', 'r2')]);
    expect(planExport(state, request('e2'), 'c2')).toEqual({ kind: 'on-top', parent: 'c2', base: 'r2', layout: 'r1' });
  });

  it('refuses with remote_changed when the branch moved to commits the space has not seen; force builds on them', () => {
    const state = given([spaceCreated, ...imported('i1', 'c1', 'r1')]);
    const refused = planExport(state, request('e1'), 'c9');
    expect(refused).toMatchObject({ kind: 'refused', code: 'remote_changed', message: expect.stringMatching(/Import the repository first/) });
    expect(planExport(state, request('e1', { force: true }), 'c9')).toEqual({ kind: 'on-top', parent: 'c9' });
  });

  it('writes on top of a branch Quire never synced with (a first export), keeping what the space does not hold', () => {
    const state = given([spaceCreated, ...imported('i1', 'c1', 'r1', { ref: 'refs/heads/other' })]);
    expect(planExport(state, request('e1'), 'c9')).toEqual({ kind: 'on-top', parent: 'c9' });
  });

  it('does not count standalone imports and exports as syncs', () => {
    const state = given([spaceCreated, ...imported('i1', 'c1', 'r1', { standalone: true }), requested(request('e1', { standalone: true })), exported('e1', 'c2', 'r2', true)]);
    expect(state.syncedCommits).toEqual({});
    expect(planExport(state, request('e2'), 'c2')).toEqual({ kind: 'on-top', parent: 'c2' });
  });
});
