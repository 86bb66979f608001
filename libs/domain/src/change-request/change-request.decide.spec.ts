import { RevisionCreated } from '../revision/revision.events';
import { ChangeRequestEvent } from './change-request.events';
import { decideChangeRequest, PENDING_REQUEST_TTL_MS, StaleHeadError } from './change-request.decide';
import { changeRequestAggregate, changeRequestBase, ChangeRequestState } from './change-request.state';
import { mergeRuleViolations } from './merge-rules';
import { decideChangeRequestNumber, spaceForChangeRequestsAggregate } from './space-change-requests';

const now = new Date('2025-01-01T00:00:00Z');
const ctx = { now };
const given = (...events: ChangeRequestEvent[]): ChangeRequestState => events.reduce(changeRequestAggregate.evolve, changeRequestAggregate.initialState());
const created: ChangeRequestEvent = {
  type: 'ChangeRequestCreated',
  data: { changeRequestId: 'cr1', spaceId: 's1', number: 1, subject: 'Fix', revisionInitial: 'r0', createdBy: 'u1', createdAt: now.toISOString() },
};
const revision = (rev: string, kind: RevisionCreated['data']['kind'] = 'edits'): RevisionCreated => ({
  type: 'RevisionCreated',
  data: { spaceId: 's1', changeRequestId: 'cr1', revision: rev, parents: [], kind, pages: [], files: [], createdBy: 'u2', createdAt: now.toISOString() },
});
const noRules = { revision: 'r0', mergeRules: { type: 'inherit' as const } };

describe('change request decisions', () => {
  it('given a new change request, it is a draft whose head and base are the space revision it started from', () => {
    const state = given(...decideChangeRequest({ type: 'CreateChangeRequest', changeRequestId: 'cr1', spaceId: 's1', number: 1, revisionInitial: 'r0', creatorId: 'u1' }, given(), ctx));
    expect(state).toMatchObject({ status: 'draft', subject: '', revision: 'r0', revisionInitial: 'r0' });
    expect(changeRequestBase(state)).toBe('r0');
  });

  it('moves between draft, open and archived, carrying the status it leaves; merged only through a merge', () => {
    const events = decideChangeRequest({ type: 'EditChangeRequest', status: 'open', subject: 'Better', actorId: 'u1' }, given(created), ctx);
    expect(events.map((e) => e.type)).toEqual(['ChangeRequestDetailsChanged', 'ChangeRequestStatusChanged']);
    expect(events[1].data).toMatchObject({ from: 'draft', to: 'open' });
    const merged = given(created, { type: 'ChangeRequestMerged', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q', from: 'draft', revisionMerged: 'r9', revision: 'r0', mergedBy: 'u1', mergedAt: now.toISOString() } });
    expect(() => decideChangeRequest({ type: 'EditChangeRequest', status: 'open', actorId: 'u1' }, merged, ctx)).toThrow(/merged/);
    expect(() => decideChangeRequest({ type: 'EditChangeRequest', subject: 'x'.repeat(101), actorId: 'u1' }, given(created), ctx)).toThrow(/100/);
  });

  it('records a content revision only on the head it was computed from, and contributors from edits', () => {
    expect(() => decideChangeRequest({ type: 'RecordChangeRequestRevision', revision: revision('r2'), onHead: 'r1' }, given(created), ctx)).toThrow(StaleHeadError);
    const state = given(created, ...decideChangeRequest({ type: 'RecordChangeRequestRevision', revision: revision('r1'), onHead: 'r0' }, given(created), ctx));
    expect(state).toMatchObject({ revision: 'r1', contributors: ['u2'] });
  });

  it('holds edits while a merge is pending, until it ends or goes stale', () => {
    const requested = given(created, { type: 'ChangeRequestMergeRequested', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q1', requestedBy: 'u1', at: now.toISOString() } });
    expect(() => decideChangeRequest({ type: 'RecordChangeRequestRevision', revision: revision('r1'), onHead: 'r0' }, requested, ctx)).toThrow(/being merged/);
    expect(decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q2', actorId: 'u1', space: noRules }, requested, ctx)).toEqual([]);
    const later = { now: new Date(now.getTime() + PENDING_REQUEST_TTL_MS + 1) };
    expect(decideChangeRequest({ type: 'RecordChangeRequestRevision', revision: revision('r1'), onHead: 'r0' }, requested, later)).toHaveLength(1);
  });

  it('refuses a merge the rules block (422) and an archived change request (409)', () => {
    const rules = { revision: 'r5', mergeRules: { type: 'rules' as const, rules: [{ rule: 'require_up_to_date_change_request' as const }] } };
    expect(() => decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q', actorId: 'u1', space: rules }, given(created), ctx)).toThrow(
      expect.objectContaining({ code: 'unprocessable' }),
    );
    const archived = given(created, { type: 'ChangeRequestStatusChanged', data: { changeRequestId: 'cr1', spaceId: 's1', from: 'draft', to: 'archived', by: 'u1', at: now.toISOString() } });
    expect(() => decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q', actorId: 'u1', space: noRules }, archived, ctx)).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it('an update moves the base to the space revision merged in', () => {
    const events = decideChangeRequest({ type: 'CompleteChangeRequestUpdate', requestId: 'q', revision: revision('r3', 'update'), onHead: 'r0', revisionMergedAncestor: 'r2', conflicts: ['guide'] }, given(created), ctx);
    const state = given(created, ...events);
    expect(state).toMatchObject({ revision: 'r3', revisionMergedAncestor: 'r2', contributors: [] });
    expect(changeRequestBase(state)).toBe('r2');
    expect(events[1].data).toMatchObject({ result: 'conflicts' });
  });
});

describe('merge rules', () => {
  const facts = { outdated: false, subject: 'S', hasDescription: false, createdBy: 'u1', actorId: 'u2', approvedReviews: 0, reviews: 0 };
  it('inherit and none block nothing; allow_bypass lets its users through', () => {
    expect(mergeRuleViolations({ type: 'inherit' }, { ...facts, outdated: true })).toEqual([]);
    const rules = { type: 'rules' as const, rules: [{ rule: 'require_author_to_merge' as const }, { rule: 'allow_bypass' as const, users: ['u3'] }] };
    expect(mergeRuleViolations(rules, facts)).toHaveLength(1);
    expect(mergeRuleViolations(rules, { ...facts, actorId: 'u3' })).toEqual([]);
  });
});

describe('change request numbers', () => {
  it('are allocated one after the other on the space stream', () => {
    let state = spaceForChangeRequestsAggregate.evolve(spaceForChangeRequestsAggregate.initialState(), {
      type: 'SpaceCreated',
      data: { spaceId: 's1', organizationId: 'o', title: 't', editMode: 'live', defaultLevel: 'inherit', mergeRules: { type: 'inherit' }, initialRevision: 'r0', createdBy: 'u', createdAt: '' },
    } as any);
    for (const id of ['a', 'b']) for (const e of decideChangeRequestNumber(state, { changeRequestId: id }, ctx)) state = spaceForChangeRequestsAggregate.evolve(state, e);
    expect(state.lastNumber).toBe(2);
  });
});
