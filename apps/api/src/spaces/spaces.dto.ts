import { z } from 'zod';
import { SPACE_EDIT_MODES, SPACE_TITLE_MAX, SPACE_VISIBILITIES, TRANSLATION_LANGUAGES } from '@quire/domain';
import { entityId } from '../http/validation';
import { defaultLevelInput } from '../permissions/permissions.dto';

/**
 * GitBook's Emoji: its code points in hex ("1f389", "1f468-200d-1f4bb"), or the character
 * itself ("🎉"), at most 50. Decoded, it must be a real emoji: an Extended_Pictographic or
 * Regional_Indicator character (with any joiners, variation selectors, skin tones and tags),
 * or a keycap sequence ("0023-fe0f-20e3"). "abc", "ff", "1234" and "#" are not emoji.
 */
export const emojiInput = z
  .string()
  .max(50)
  .refine((value) => isEmoji(value), 'must be an emoji or its code points');

const HEX_EMOJI = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i;
const EMOJI_PART = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200d|\ufe0f|\ufe0e|[\u{e0020}-\u{e007f}])$/u;
const KEYCAP = /^[0-9#*]\ufe0f?\u20e3$/u;

export function isEmoji(value: string): boolean {
  let text = value;
  if (HEX_EMOJI.test(value)) {
    const points = value.split('-').map((h) => parseInt(h, 16));
    if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return false;
    text = String.fromCodePoint(...points);
  }
  if (KEYCAP.test(text)) return true;
  const chars = [...text];
  return chars.length > 0 && chars.every((c) => EMOJI_PART.test(c)) && chars.some((c) => /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator})$/u.test(c));
}

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

/** GitBook's MergeRulesStandaloneConfiguration (an organization's: nothing to inherit from). */
export const organizationMergeRulesInput = z.discriminatedUnion('type', [
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
