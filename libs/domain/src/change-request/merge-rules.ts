import { MergeRulesConfiguration } from '../space/space.settings';

export interface MergeFacts {
  /** The space's live revision differs from the change request's base. */
  outdated: boolean;
  subject: string;
  hasDescription: boolean;
  createdBy: string;
  /** Who merges. */
  actorId: string;
  /** Approved reviews on the change request's current revision (Quire records no reviews yet: 0). */
  approvedReviews: number;
  reviews: number;
}

/**
 * GitBook's merge rules, evaluated when a merge is asked for and again when the worker merges
 * (the space may have moved in between). `inherit` takes the organization's rules, which are
 * `none` in Quire. A rule about reviews cannot be met while Quire records no reviews, and a
 * `custom` expression is not evaluated: both block the merge, with a message saying so, rather
 * than letting content through that the space owners meant to hold back.
 * Returns the messages of the rules that block (empty: the merge may go on).
 */
export function mergeRuleViolations(config: MergeRulesConfiguration, facts: MergeFacts): string[] {
  if (config.type !== 'rules') return [];
  const bypass = config.rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(facts.actorId));
  if (bypass) return [];
  const out: string[] = [];
  for (const rule of config.rules) {
    switch (rule.rule) {
      case 'allow_bypass':
        break;
      case 'require_up_to_date_change_request':
        if (facts.outdated) out.push('The change request is not up to date with the space: update it before merging');
        break;
      case 'require_change_request_subject':
        if (!facts.subject.trim()) out.push('The change request needs a subject before it can be merged');
        break;
      case 'require_change_request_description':
        if (!facts.hasDescription) out.push('The change request needs a description before it can be merged');
        break;
      case 'require_author_to_merge':
        if (facts.actorId !== facts.createdBy) out.push('Only the author of the change request can merge it');
        break;
      case 'require_at_least_one_review':
        if (facts.reviews < 1) out.push('The change request needs at least one review before it can be merged');
        break;
      case 'require_at_least_one_approved_review':
      case 'require_all_reviews_approved':
        if (facts.approvedReviews < 1) out.push('The change request needs an approved review before it can be merged');
        break;
      case 'require_specific_reviewers':
      case 'require_one_of_specific_reviewers':
        out.push('The change request needs reviews from the required reviewers before it can be merged');
        break;
      case 'require_agent_review':
        out.push('The change request needs an agent review before it can be merged');
        break;
      case 'custom':
        out.push(rule.message ?? 'A custom merge rule of this space blocks the merge');
        break;
    }
  }
  return out;
}
