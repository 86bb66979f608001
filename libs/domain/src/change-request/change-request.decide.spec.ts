import { RevisionCreated } from '../revision/revision.events';
import { ChangeRequestEvent } from './change-request.events';
import { decideChangeRequest, MergeCheck, mergeRefusal, PendingRequestError, StaleHeadError } from './change-request.decide';
import { changeRequestAggregate, changeRequestBase, ChangeRequestState } from './change-request.state';
import { MergeFacts, mergeRuleViolations, reviewFacts } from './merge-rules';
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
const mergeRequestedByU1: ChangeRequestEvent = { type: 'ChangeRequestMergeRequested', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q1', requestedBy: 'u1', at: now.toISOString() } };

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

  const mergeRequested: ChangeRequestEvent = { type: 'ChangeRequestMergeRequested', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q1', requestedBy: 'u1', at: now.toISOString() } };
  const updateRequested: ChangeRequestEvent = { type: 'ChangeRequestUpdateRequested', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'u1', requestedBy: 'u1', at: now.toISOString() } };
  const hours = (n: number) => ({ now: new Date(now.getTime() + n * 3600_000) });

  it('holds edits while a merge is pending, however long it runs, until it ends or its job is known to be gone', () => {
    const requested = given(created, mergeRequested);
    const edit = { type: 'RecordChangeRequestRevision' as const, revision: revision('r1'), onHead: 'r0' };
    expect(() => decideChangeRequest(edit, requested, ctx)).toThrow(/being merged/);
    expect(() => decideChangeRequest(edit, requested, hours(5))).toThrow(PendingRequestError);
    expect(() => decideChangeRequest({ type: 'EditChangeRequest', status: 'open', actorId: 'u1' }, requested, hours(5))).toThrow(/being merged/);
    expect(decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q2', actorId: 'u1', space: noRules }, requested, hours(5))).toEqual([]);
    // Released by the merge's end...
    const failed: ChangeRequestEvent = {
      type: 'ChangeRequestMergeFailed',
      data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q1', reason: 'conflicts', message: 'x', spaceRevision: 'r5', conflicts: ['a'], at: now.toISOString() },
    };
    expect(decideChangeRequest(edit, given(created, mergeRequested, failed), ctx)).toHaveLength(1);
    // ...or when the caller verified its job gone; a new merge request then starts a new job.
    expect(decideChangeRequest({ ...edit, abandoned: ['q1'] }, requested, ctx)).toHaveLength(1);
    expect(decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q2', actorId: 'u1', space: noRules, abandoned: ['q1'] }, requested, ctx)).toEqual([
      expect.objectContaining({ type: 'ChangeRequestMergeRequested', data: expect.objectContaining({ requestId: 'q2' }) }),
    ]);
  });

  it('never lets an update and a merge of one change request run at once', () => {
    const merging = given(created, mergeRequested);
    expect(() => decideChangeRequest({ type: 'RequestChangeRequestUpdate', requestId: 'u2', actorId: 'u1' }, merging, hours(1))).toThrow(
      expect.objectContaining({ kind: 'merge', code: 'conflict' }),
    );
    expect(() =>
      decideChangeRequest({ type: 'CompleteChangeRequestUpdate', requestId: 'u0', onHead: 'r0', revisionMergedAncestor: 'r5', conflicts: [] }, merging, ctx),
    ).toThrow(/being merged/);
    const updating = given(created, updateRequested);
    expect(() => decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q2', actorId: 'u1', space: noRules }, updating, hours(1))).toThrow(
      expect.objectContaining({ kind: 'update', code: 'conflict' }),
    );
    expect(decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q2', actorId: 'u1', space: noRules, abandoned: ['u1'] }, updating, ctx)).toHaveLength(1);
    expect(decideChangeRequest({ type: 'RequestChangeRequestUpdate', requestId: 'u3', actorId: 'u1', abandoned: ['q1'] }, merging, ctx)).toHaveLength(1);
  });

  it('remembers what updates left conflicting, also across later clean updates', () => {
    const updated = (conflicts: string[], conflictPageIds?: string[]): ChangeRequestEvent => ({
      type: 'ChangeRequestUpdated',
      data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'u1', revision: 'r2', revisionMergedAncestor: 'r5', result: conflicts.length ? 'conflicts' : 'update', conflicts, conflictPageIds, at: now.toISOString() },
    });
    expect(given(created, updated(['guide'], ['p1'])).updateConflicts).toEqual({ paths: ['guide'], pageIds: ['p1'] });
    // Recorded before page ids were: found by path.
    expect(given(created, updated(['guide'])).updateConflicts).toEqual({ paths: ['guide'], pageIds: [] });
    expect(given(created, updated([])).updateConflicts).toBeUndefined();
    // A later clean update does not take away markers an earlier one wrote; the merge checks the pages.
    expect(given(created, updated(['guide'], ['p1']), updated([]), updated(['faq'], ['p2'])).updateConflicts).toEqual({ paths: ['guide', 'faq'], pageIds: ['p1', 'p2'] });
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

describe('reviews', () => {
  const review = (state: ChangeRequestState, actorId: string, status: 'approved' | 'changes-requested', reviewId = `rv-${actorId}-${state.reviews.length}`) =>
    decideChangeRequest({ type: 'SubmitChangeRequestReview', reviewId, status, actorId }, state, ctx);

  it('given requested reviewers, a review records who asked for it and answers the request', () => {
    const requested = given(created, ...decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2', 'u3', 'u2'], actorId: 'u1' }, given(created), ctx));
    expect(Object.keys(requested.reviewRequests)).toEqual(['u2', 'u3']);
    expect(requested.reviewRequests.u2).toMatchObject({ requestedBy: 'u1', revision: 'r0', answered: false });
    // Asking again before they reviewed changes nothing.
    expect(decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2'], actorId: 'u1' }, requested, ctx)).toEqual([]);

    const events = review(requested, 'u2', 'approved');
    expect(events[0].data).toMatchObject({ reviewer: 'u2', status: 'approved', revision: 'r0', requestedBy: 'u1' });
    const reviewed = given(created, ...decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2', 'u3'], actorId: 'u1' }, given(created), ctx), ...events);
    expect(reviewed.reviewRequests.u2.answered).toBe(true);
    expect(review(reviewed, 'u4', 'approved')[0].data).not.toHaveProperty('requestedBy');
  });

  it('a later head, a newer review or a new request makes a review outdated; outdated reviews do not approve', () => {
    const approved = given(created, ...review(given(created), 'u2', 'approved'));
    expect(reviewFacts(approved)).toEqual([{ reviewer: 'u2', status: 'approved', outdated: false }]);

    const edited = given(created, ...review(given(created), 'u2', 'approved'), revision('r1'));
    expect(reviewFacts(edited)).toEqual([{ reviewer: 'u2', status: 'approved', outdated: true }]);

    const first = review(given(created), 'u2', 'approved');
    const changed = given(created, ...first, ...review(given(created, ...first), 'u2', 'changes-requested'));
    expect(changed.reviews.map((r) => r.superseded)).toEqual([true, false]);
    expect(reviewFacts(changed)).toEqual([{ reviewer: 'u2', status: 'changes-requested', outdated: false }]);

    const asked = given(created, ...review(given(created), 'u2', 'approved'), ...decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2'], actorId: 'u1' }, approved, ctx));
    expect(reviewFacts(asked)).toEqual([]);
  });

  it('refuses reviews and requests on a merged change request, and reviews on an archived one', () => {
    const merged = given(created, { type: 'ChangeRequestMerged', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q', from: 'open', revisionMerged: 'r9', revision: 'r0', mergedBy: 'u1', mergedAt: now.toISOString() } });
    expect(() => review(merged, 'u2', 'approved')).toThrow(/merged/);
    expect(() => decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2'], actorId: 'u1' }, merged, ctx)).toThrow(/merged/);
    const archived = given(created, { type: 'ChangeRequestStatusChanged', data: { changeRequestId: 'cr1', spaceId: 's1', from: 'draft', to: 'archived', by: 'u1', at: now.toISOString() } });
    expect(() => review(archived, 'u2', 'approved')).toThrow(/archived/);
  });

  it('removes a requested reviewer once; their reviews stay', () => {
    const state = given(created, ...decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2'], actorId: 'u1' }, given(created), ctx));
    const events = decideChangeRequest({ type: 'UnrequestChangeRequestReviewer', userId: 'u2', actorId: 'u1' }, state, ctx);
    expect(events.map((e) => e.type)).toEqual(['ChangeRequestReviewerUnrequested']);
    expect(given(created, ...decideChangeRequest({ type: 'RequestChangeRequestReviewers', users: ['u2'], actorId: 'u1' }, given(created), ctx), ...events).reviewRequests).toEqual({});
    expect(decideChangeRequest({ type: 'UnrequestChangeRequestReviewer', userId: 'u3', actorId: 'u1' }, state, ctx)).toEqual([]);
  });

  it('a merge request is refused while the review rules are unmet, naming the rule', () => {
    const space = { revision: 'r0', mergeRules: { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_approved_review' as const }] } };
    const merge = (state: ChangeRequestState) => decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId: 'q', actorId: 'u1', space }, state, ctx);
    expect(() => merge(given(created))).toThrow(/require_at_least_one_approved_review/);
    expect(() => merge(given(created, ...review(given(created), 'u2', 'changes-requested')))).toThrow(/require_at_least_one_approved_review/);
    expect(merge(given(created, ...review(given(created), 'u2', 'approved'))).map((e) => e.type)).toEqual(['ChangeRequestMergeRequested']);
  });
});

describe('merge preconditions, checked when the worker merges', () => {
  const archivedEvent: ChangeRequestEvent = { type: 'ChangeRequestStatusChanged', data: { changeRequestId: 'cr1', spaceId: 's1', from: 'draft', to: 'archived', by: 'u1', at: now.toISOString() } };
  const check = (extra: Partial<MergeCheck['space']> = {}, markedPages: string[] = []): MergeCheck => ({
    space: { revision: 'r0', editMode: 'live', mergeRules: { type: 'inherit' }, ...extra },
    actorId: 'u1',
    markedPages,
  });

  it('given an open change request on a live space with no rules, then the merge goes on', () => {
    expect(mergeRefusal(given(created), check())).toBeUndefined();
  });

  it('given a locked space, then nothing is merged into it (422), before any other reason', () => {
    expect(mergeRefusal(given(created, archivedEvent), check({ editMode: 'locked' }, ['guide']))).toEqual({
      reason: 'not_mergeable',
      code: 'unprocessable',
      message: 'The space is locked: nothing can be merged into it',
      conflicts: [],
    });
  });

  it('given an archived change request, then it is not merged until reopened (409)', () => {
    expect(mergeRefusal(given(created, archivedEvent), check())).toEqual({
      reason: 'not_mergeable',
      code: 'conflict',
      message: 'An archived change request cannot be merged; reopen it first',
      conflicts: [],
    });
  });

  it('given conflict markers an update left, then the merge is refused naming the pages to resolve (422)', () => {
    expect(mergeRefusal(given(created), check({}, ['guide']))).toEqual({
      reason: 'conflicts',
      code: 'unprocessable',
      message: 'The change request still has conflict markers in guide: resolve them by editing that page, then merge',
      conflicts: ['guide'],
    });
    expect(mergeRefusal(given(created), check({}, ['guide', 'faq']))?.message).toMatch(/in guide, faq: resolve them by editing those pages/);
  });

  it('given merge rules the change request does not meet now (the space moved since the request), then the merge is refused (422)', () => {
    const rules = { type: 'rules' as const, rules: [{ rule: 'require_up_to_date_change_request' as const }] };
    expect(mergeRefusal(given(created), check({ mergeRules: rules }))).toBeUndefined();
    expect(mergeRefusal(given(created), check({ mergeRules: rules, revision: 'r5' }))).toEqual({
      reason: 'merge_rules',
      code: 'unprocessable',
      message: 'The merge rules of this space block the merge: The change request is not up to date with the space: update it before merging (require_up_to_date_change_request)',
      conflicts: [],
    });
  });

  it('given review rules, then only a review of the current head lets the merge go on', () => {
    const rules = { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_approved_review' as const }] };
    const approval: ChangeRequestEvent = {
      type: 'ChangeRequestReviewSubmitted',
      data: { changeRequestId: 'cr1', spaceId: 's1', reviewId: 'rv1', reviewer: 'u2', status: 'approved', revision: 'r0', at: now.toISOString() },
    };
    expect(mergeRefusal(given(created), check({ mergeRules: rules }))).toMatchObject({ reason: 'merge_rules', message: /require_at_least_one_approved_review/ });
    expect(mergeRefusal(given(created, approval), check({ mergeRules: rules }))).toBeUndefined();
    // An edit after the approval: the approval is of an earlier head.
    expect(mergeRefusal(given(created, approval, revision('r1')), check({ mergeRules: rules }))).toMatchObject({ reason: 'merge_rules' });
  });

  it('records a refusal as ChangeRequestMergeFailed, and nothing once merged', () => {
    const refusal = mergeRefusal(given(created), check({}, ['guide']))!;
    const fail = { type: 'FailChangeRequestMerge' as const, requestId: 'q1', reason: refusal.reason, message: refusal.message, spaceRevision: 'r0', conflicts: refusal.conflicts };
    expect(decideChangeRequest(fail, given(created, mergeRequestedByU1), ctx)).toEqual([
      { type: 'ChangeRequestMergeFailed', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q1', reason: 'conflicts', message: refusal.message, spaceRevision: 'r0', conflicts: ['guide'], at: now.toISOString() } },
    ]);
    const merged: ChangeRequestEvent = { type: 'ChangeRequestMerged', data: { changeRequestId: 'cr1', spaceId: 's1', requestId: 'q1', from: 'draft', revisionMerged: 'r9', revision: 'r0', mergedBy: 'u1', mergedAt: now.toISOString() } };
    expect(decideChangeRequest(fail, given(created, merged), ctx)).toEqual([]);
  });
});

describe('merge rules', () => {
  const facts: MergeFacts = { outdated: false, subject: 'S', hasDescription: false, createdBy: 'u1', actorId: 'u2', reviews: [] };
  const rules = (...list: any[]) => ({ type: 'rules' as const, rules: list });
  const approved = (reviewer: string, outdated = false) => ({ reviewer, status: 'approved' as const, outdated });
  const changes = (reviewer: string, outdated = false) => ({ reviewer, status: 'changes-requested' as const, outdated });

  it('inherit and none block nothing; allow_bypass lets its users through every rule', () => {
    expect(mergeRuleViolations({ type: 'inherit' }, { ...facts, outdated: true })).toEqual([]);
    expect(mergeRuleViolations({ type: 'none' }, { ...facts, outdated: true })).toEqual([]);
    const set = rules({ rule: 'require_author_to_merge' }, { rule: 'require_at_least_one_review' }, { rule: 'allow_bypass', users: ['u3'] });
    expect(mergeRuleViolations(set, facts)).toHaveLength(2);
    expect(mergeRuleViolations(set, { ...facts, actorId: 'u3' })).toEqual([]);
  });

  it('require_author_to_merge: only the author', () => {
    const set = rules({ rule: 'require_author_to_merge' });
    expect(mergeRuleViolations(set, facts)).toEqual([expect.stringMatching(/author.*\(require_author_to_merge\)$/)]);
    expect(mergeRuleViolations(set, { ...facts, actorId: 'u1' })).toEqual([]);
  });

  it('require_at_least_one_review: any review of the current revision', () => {
    const set = rules({ rule: 'require_at_least_one_review' });
    expect(mergeRuleViolations(set, facts)).toHaveLength(1);
    expect(mergeRuleViolations(set, { ...facts, reviews: [changes('u3', true)] })).toHaveLength(1);
    expect(mergeRuleViolations(set, { ...facts, reviews: [changes('u3')] })).toEqual([]);
  });

  it('require_at_least_one_approved_review: an approval of the current revision (outdated ones do not count)', () => {
    const set = rules({ rule: 'require_at_least_one_approved_review' });
    expect(mergeRuleViolations(set, { ...facts, reviews: [approved('u3', true), changes('u4')] })).toHaveLength(1);
    expect(mergeRuleViolations(set, { ...facts, reviews: [approved('u3'), changes('u4')] })).toEqual([]);
  });

  it('require_all_reviews_approved: every reviewer approves the current revision, and someone reviewed', () => {
    const set = rules({ rule: 'require_all_reviews_approved' });
    expect(mergeRuleViolations(set, facts)).toHaveLength(1);
    expect(mergeRuleViolations(set, { ...facts, reviews: [approved('u3'), changes('u4')] })).toEqual([expect.stringMatching(/u4/)]);
    expect(mergeRuleViolations(set, { ...facts, reviews: [approved('u3'), approved('u4', true)] })).toEqual([expect.stringMatching(/u4/)]);
    expect(mergeRuleViolations(set, { ...facts, reviews: [approved('u3'), approved('u4')] })).toEqual([]);
  });

  it('require_specific_reviewers: all of them approve; require_one_of_specific_reviewers: one of them', () => {
    const all = rules({ rule: 'require_specific_reviewers', users: ['u3', 'u4'] });
    const one = rules({ rule: 'require_one_of_specific_reviewers', users: ['u3', 'u4'] });
    const reviews = [approved('u3'), approved('u4', true), approved('u5')];
    expect(mergeRuleViolations(all, { ...facts, reviews })).toEqual([expect.stringMatching(/u4.*require_specific_reviewers/)]);
    expect(mergeRuleViolations(one, { ...facts, reviews })).toEqual([]);
    expect(mergeRuleViolations(one, { ...facts, reviews: [approved('u5'), changes('u3')] })).toHaveLength(1);
    expect(mergeRuleViolations(all, { ...facts, reviews: [approved('u3'), approved('u4')] })).toEqual([]);
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
