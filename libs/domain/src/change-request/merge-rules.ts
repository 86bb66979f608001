import { MergeRule, MergeRulesConfiguration, OrganizationMergeRules } from '../space/space.settings';
import { ChangeRequestReviewStatus } from './change-request.events';
import { ChangeRequestState, isReviewOutdated } from './change-request.state';

/** A reviewer's latest review; `outdated` when made against an earlier head (or superseded). */
export interface ReviewFact {
  reviewer: string;
  status: ChangeRequestReviewStatus;
  outdated: boolean;
}

export interface MergeFacts {
  /** The space's live revision differs from the change request's base. */
  outdated: boolean;
  subject: string;
  hasDescription: boolean;
  createdBy: string;
  /** Who merges. */
  actorId: string;
  /** The latest review of each reviewer (see reviewFacts). */
  reviews: ReviewFact[];
}

/** The review facts of a change request: each reviewer's latest review, outdated or not. */
export function reviewFacts(state: Pick<ChangeRequestState, 'reviews' | 'revision'>): ReviewFact[] {
  return state.reviews
    .filter((r) => !r.superseded)
    .map((r) => ({ reviewer: r.reviewer, status: r.status, outdated: isReviewOutdated(r, state.revision) }));
}

type RuleName = MergeRule['rule'];
// Not Extract<>: several rules share one union member (its `rule` is itself a union).
type RuleOf<Name extends RuleName> = MergeRule & { rule: Name };
/** A rule's check: the message saying what is missing, or undefined when the rule is met. */
type RuleCheck<Name extends RuleName> = (rule: RuleOf<Name>, facts: MergeFacts) => string | undefined;

/** Reviews of the current head: outdated ones count for nothing. */
const current = (facts: MergeFacts) => facts.reviews.filter((r) => !r.outdated);
const approvedBy = (facts: MergeFacts, user: string) => current(facts).some((r) => r.reviewer === user && r.status === 'approved');

/**
 * One pure check per GitBook merge rule. `allow_bypass` is no check of its own: it lets its
 * users past all the others (see mergeRuleViolations). A `custom` expression is not evaluated
 * and `require_agent_review` cannot be met (Quire has no review agents): both block, saying so,
 * rather than letting through content the space owners meant to hold back.
 */
const CHECKS: { [Name in RuleName]: RuleCheck<Name> } = {
  allow_bypass: () => undefined,
  require_up_to_date_change_request: (_, f) => (f.outdated ? 'The change request is not up to date with the space: update it before merging' : undefined),
  require_change_request_subject: (_, f) => (f.subject.trim() ? undefined : 'The change request needs a subject before it can be merged'),
  require_change_request_description: (_, f) => (f.hasDescription ? undefined : 'The change request needs a description before it can be merged'),
  require_author_to_merge: (_, f) => (f.actorId === f.createdBy ? undefined : 'Only the author of the change request can merge it'),
  require_at_least_one_review: (_, f) => (current(f).length > 0 ? undefined : 'The change request needs at least one review of its current revision before it can be merged'),
  require_at_least_one_approved_review: (_, f) =>
    current(f).some((r) => r.status === 'approved') ? undefined : 'The change request needs an approved review of its current revision before it can be merged',
  // Every reviewer's latest review must approve the current revision: an outdated approval
  // asks for a new look, an outdated request for changes still stands until its reviewer approves.
  require_all_reviews_approved: (_, f) => {
    if (f.reviews.length === 0) return 'The change request needs approved reviews before it can be merged';
    const pending = f.reviews.filter((r) => r.outdated || r.status !== 'approved').map((r) => r.reviewer);
    return pending.length === 0 ? undefined : `Every review must approve the current revision; not yet: ${pending.join(', ')}`;
  },
  require_specific_reviewers: (rule, f) => {
    const missing = rule.users.filter((u) => !approvedBy(f, u));
    return missing.length === 0 ? undefined : `The change request needs the approval of ${missing.join(', ')} on its current revision`;
  },
  require_one_of_specific_reviewers: (rule, f) =>
    rule.users.some((u) => approvedBy(f, u)) ? undefined : `The change request needs the approval of one of ${rule.users.join(', ')} on its current revision`,
  require_agent_review: () => 'The change request needs an agent review, which Quire cannot give',
  custom: (rule) => rule.message ?? 'A custom merge rule of this space blocks the merge',
};

/** The rules a space's merges follow: its own, or with `inherit` its organization's. */
export function effectiveMergeRules(space: MergeRulesConfiguration, organization: OrganizationMergeRules): OrganizationMergeRules {
  return space.type === 'inherit' ? organization : space;
}

/**
 * GitBook's merge rules, evaluated when a merge is asked for and again when the worker merges
 * (the space may have moved in between); give them through effectiveMergeRules (`inherit`
 * alone blocks nothing). Returns one message per rule that blocks, each naming its rule
 * (empty: the merge may go on).
 */
export function mergeRuleViolations(config: MergeRulesConfiguration, facts: MergeFacts): string[] {
  if (config.type !== 'rules') return [];
  const bypass = config.rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(facts.actorId));
  if (bypass) return [];
  const out: string[] = [];
  for (const rule of config.rules) {
    const message = (CHECKS[rule.rule] as RuleCheck<RuleName>)(rule, facts);
    if (message) out.push(`${message} (${rule.rule})`);
  }
  return out;
}
