import { z } from 'zod';
import { SPACE_EDIT_MODES, SPACE_TITLE_MAX, SPACE_VISIBILITIES, TRANSLATION_LANGUAGES } from '@quire/domain';
import { entityId } from '../http/validation';
import { defaultLevelInput } from '../permissions/permissions.dto';

/** GitBook's Emoji: a character ("🎉") or its code points ("1f389", "1f468-200d-1f4bb"), at most 50. */
export const emojiInput = z
  .string()
  .max(50)
  .regex(
    /^(?:[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*|(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Regional_Indicator}|\u200d|\ufe0f)+)$/iu,
    'must be an emoji or its code points',
  );

const mergeRule = z.union([
  z.object({ rule: z.enum(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']), users: z.array(entityId).max(100) }),
  z.object({
    rule: z.enum([
      'require_at_least_one_review',
      'require_at_least_one_approved_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
      'require_author_to_merge',
    ]),
  }),
  z.object({ rule: z.literal('custom'), expression: z.string().max(1024), message: z.string().max(1000).optional() }),
]);

/** GitBook's MergeRulesSpaceConfiguration. */
export const mergeRulesInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inherit') }),
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('rules'), rules: z.array(mergeRule).max(50) }),
]);

/**
 * GitBook's CreateSpace. Its second half accepts any extra property (templates, computed
 * sources...): those are ignored, except `empty: true`, which is recorded for the content side.
 */
export const createSpaceBody = z
  .object({
    title: z.string().max(SPACE_TITLE_MAX).optional(),
    emoji: emojiInput.optional(),
    parent: entityId.optional(),
    language: z.enum(TRANSLATION_LANGUAGES).optional(),
    editMode: z.enum(SPACE_EDIT_MODES).optional(),
    empty: z.unknown().optional(),
  })
  .transform(({ empty, ...rest }) => ({ ...rest, empty: empty === true }));

/**
 * GitBook's UpdateSpace body; `emoji: null` / `icon: null` clear the icon. `visibility` (GitBook's
 * ContentVisibility, without share links and visitor auth) publishes the space as a docs site.
 */
export const updateSpaceBody = z.object({
  visibility: z.enum(SPACE_VISIBILITIES).optional(),
  editMode: z.enum(SPACE_EDIT_MODES).optional(),
  title: z.string().max(SPACE_TITLE_MAX).optional(),
  defaultLevel: defaultLevelInput.optional(),
  language: z.enum(TRANSLATION_LANGUAGES).optional(),
  mergeRules: mergeRulesInput.optional(),
  emoji: emojiInput.nullable().optional(),
  icon: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
});
