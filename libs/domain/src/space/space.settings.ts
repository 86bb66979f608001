import { Role } from '../shared/roles';

/** GitBook's SpaceEditMode. */
export const SPACE_EDIT_MODES = ['live', 'locked'] as const;
export type SpaceEditMode = (typeof SPACE_EDIT_MODES)[number];

/** GitBook's TranslationLanguage. */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no',
  'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/**
 * GitBook's DefaultLevel: what organization members get on a piece of content by being members.
 * `inherit` takes the level of the enclosing collection (or the member's organization role at
 * the top); a role gives every member that role; `null` (no access) gives members nothing, so
 * only explicit grants (and organization admins) reach the content.
 */
export type DefaultLevel = Role | null | 'inherit';

/**
 * GitBook's ContentVisibility, as far as Quire publishes: `public` and `unlisted` spaces are
 * served to anyone as a docs site (unlisted ones are not indexed by search engines);
 * `share-link` ones to anyone holding the space's secret share key (apps/api/src/spaces/share-links.ts);
 * `private` and `in-collection` keep the space to members (which of the two shows depends on the
 * collection and default level). Visitor auth is not modelled.
 */
export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'in-collection', 'private'] as const;
export type SpaceVisibility = (typeof SPACE_VISIBILITIES)[number];

export type MergeRule =
  | { rule: 'require_specific_reviewers' | 'require_one_of_specific_reviewers' | 'allow_bypass'; users: string[] }
  | {
      rule:
        | 'require_at_least_one_review'
        | 'require_at_least_one_approved_review'
        | 'require_all_reviews_approved'
        | 'require_agent_review'
        | 'require_up_to_date_change_request'
        | 'require_change_request_subject'
        | 'require_change_request_description'
        | 'require_author_to_merge';
    }
  | { rule: 'custom'; expression: string; message?: string };

/** GitBook's MergeRulesStandaloneConfiguration: an organization's merge rules. */
export type OrganizationMergeRules = { type: 'none' } | { type: 'rules'; rules: MergeRule[] };

/** GitBook's MergeRulesSpaceConfiguration; `inherit` takes the organization's. */
export type MergeRulesConfiguration = { type: 'inherit' } | OrganizationMergeRules;

export const SPACE_TITLE_MAX = 50;
/** Spaces keep deleted content this long; after it, they cannot be restored (GitBook: 7 days). */
export const SPACE_RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
