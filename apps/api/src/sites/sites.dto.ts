import { z } from 'zod';
import { SITE_REDIRECT_SOURCE_MAX, SITE_SHARE_LINK_NAME_MAX, SITE_TITLE_MAX, SITE_TITLE_MIN } from '@quire/domain';
import { paginationQuery } from '@quire/platform/http/pagination';
import { entityId, queryBool } from '../http/validation';

/** GitBook's SiteVisibility; `visitor-auth` needs an authentication backend Quire does not have. */
const siteVisibility = z
  .string()
  .refine((v) => v !== 'visitor-auth', 'visitor-auth is not supported by Quire')
  .pipe(z.enum(['public', 'unlisted', 'share-link']));
const title = z.string().min(SITE_TITLE_MIN).max(SITE_TITLE_MAX);
const basename = z.string().min(1).max(100);
const siteSpacePath = z.string().min(1).max(100);

export const listSitesQuery = z.object({ ...paginationQuery, published: queryBool.optional(), title: z.string().max(128).optional() });

export const createSiteBody = z.object({
  title: title.optional(),
  visibility: siteVisibility.optional(),
  basename: basename.optional(),
  /** Spaces to add to the new site, in order. */
  spaces: z.array(entityId).max(100).optional(),
});

export const updateSiteBody = z.object({
  title: title.optional(),
  visibility: siteVisibility.optional(),
  basename: basename.optional(),
  defaultSiteSpace: entityId.optional(),
});

export const addSiteSpaceBody = z.object({
  spaceId: z.union([entityId, z.null()]).refine((v) => v !== null, 'creating a new space through a site is not supported: pass an existing space id'),
  title: z.string().min(1).max(128).optional(),
});

export const updateSiteSpaceBody = z.object({
  path: siteSpacePath.optional(),
  spaceId: entityId.optional(),
  hidden: z.boolean().optional(),
});

/** A plain JSON object (not an array), at most this many characters once serialised. */
const jsonObject = (maxChars: number) =>
  z.record(z.string(), z.unknown()).refine((v) => JSON.stringify(v).length <= maxChars, `at most ${maxChars} characters of JSON`);

/**
 * GitBook's SiteCustomizationSettings. Each section is an object merged into the current
 * settings (arrays and values replace), so a partial body changes only what it names.
 */
export const siteCustomizationBody = z
  .object({
    title: z.string().max(128).optional(),
    socialAccounts: z.array(jsonObject(2_000)).max(20).optional(),
    ...Object.fromEntries(
      [
        'localizedTitle', 'styling', 'internationalization', 'favicon', 'header', 'footer', 'announcement', 'themes', 'feedback', 'ai',
        'advancedCustomization', 'pageActions', 'externalLinks', 'pagination', 'trademark', 'privacyPolicy', 'socialPreview', 'insights',
      ].map((key) => [key, jsonObject(16_000).optional()]),
    ),
  })
  .strict();

export const createShareLinkBody = z.object({ name: z.string().max(SITE_SHARE_LINK_NAME_MAX) });
export const updateShareLinkBody = z
  .object({ name: z.string().max(SITE_SHARE_LINK_NAME_MAX).optional(), active: z.boolean().optional() })
  .refine((v) => v.name !== undefined || v.active !== undefined, 'name or active is required');

const redirectDestination = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('site-space'), siteSpaceId: entityId }),
  z.object({ kind: z.literal('site-page'), siteSpaceId: entityId, pageId: entityId }),
  z.object({ kind: z.literal('external'), url: z.url({ protocol: /^https?$/ }).max(2048) }),
]);
const redirectSource = z.string().min(2).max(SITE_REDIRECT_SOURCE_MAX);
const notDraft = z.literal(false, { message: 'draft redirects are not supported' });

export const createRedirectBody = z.object({
  source: redirectSource,
  destination: redirectDestination,
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  draft: notDraft.optional(),
});

export const updateRedirectBody = z.object({
  source: redirectSource.optional(),
  destination: redirectDestination.optional(),
  permanent: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  draft: notDraft.optional(),
});

export const redirectBySourceQuery = z.object({ source: z.string().min(1).max(2048), shareKey: z.string().max(500).optional() });
export const publishedSiteQuery = z.object({ shareKey: z.string().max(500).optional() });

/**
 * GitBook's search body: the query and which site spaces to search, as a `scope` or in the
 * older `mode` fields. Without either, every site space of the site.
 */
export const siteSearchBody = z.object({
  query: z.string().min(1).max(512),
  scope: z
    .discriminatedUnion('mode', [
      z.object({ mode: z.literal('default'), currentSiteSpace: entityId.optional(), restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces']).optional() }),
      z.object({ mode: z.literal('specific'), siteSpaceIds: z.array(entityId).min(1).max(100) }),
      z.object({ mode: z.literal('all') }),
    ])
    .optional(),
  mode: z.enum(['specific', 'current', 'all']).optional(),
  siteSpaceIds: z.array(entityId).min(1).max(100).optional(),
  siteSpaceId: entityId.optional(),
});

/**
 * The site spaces a search covers, of the site's `shown` ones. A site has no sections in Quire,
 * so the default scope (the current site space and each section's default) is the current site
 * space, or every one when none is named.
 */
export function searchedSiteSpaces(input: z.infer<typeof siteSearchBody>, shown: string[]): string[] {
  const scope = input.scope;
  if (scope?.mode === 'specific') return shown.filter((id) => scope.siteSpaceIds.includes(id));
  if (scope?.mode === 'default' && scope.currentSiteSpace) {
    return scope.restrictTo === 'otherSiteSpaces' ? shown.filter((id) => id !== scope.currentSiteSpace) : shown.filter((id) => id === scope.currentSiteSpace);
  }
  if (scope) return shown;
  if (input.siteSpaceIds) return shown.filter((id) => input.siteSpaceIds!.includes(id));
  if (input.mode === 'current' && input.siteSpaceId) return shown.filter((id) => id === input.siteSpaceId);
  return shown;
}

export const resolvePublishedUrlBody = z.object({ url: z.string().min(1).max(2048), redirectOnError: z.boolean().optional(), visitor: z.unknown().optional() });
export const resolvePublishedUrlQuery = z.object({ url: z.string().min(1).max(2048), redirectOnError: z.string().optional(), visitorAuthToken: z.string().optional() });
