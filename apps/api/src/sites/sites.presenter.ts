import { QuireConfig } from '@quire/platform/config/config';
import { defaultSiteCustomization, Role, roleAtLeast } from '@quire/domain';
import { SiteRedirectRow, SiteRow, SiteShareLinkRow, SiteSpaceRow } from '@quire/read-models/sites/sites.queries';
import { SpaceRow } from '@quire/read-models/spaces/spaces.queries';
import { SHARE_PARAM } from '../spaces/share-links';
import { customHostnameOrigin, iso, presentSpace } from '../spaces/spaces.presenter';
import { siteShareKey } from './site-share-keys';

type SiteUrlFacts = Pick<SiteRow, 'organization_id' | 'organization_hostname' | 'organization_custom_hostname' | 'basename'>;

/**
 * Where a site is published (what GitBook's renderer serves, see docs/gitbook-renderer.md):
 * `<QUIRE_PUBLISHED_URL>/<org hostname or id>/<basename>`, or `<custom hostname>/<basename>` for
 * an organization with a custom hostname; each site space below it at its path, the default one
 * at the site's root.
 */
export function siteUrl(config: QuireConfig, site: SiteUrlFacts): string {
  return site.organization_custom_hostname
    ? `${customHostnameOrigin(config, site.organization_custom_hostname)}/${site.basename}`
    : `${config.publishedUrl}/${site.organization_hostname ?? site.organization_id}/${site.basename}`;
}

export const siteSpaceUrl = (config: QuireConfig, site: SiteUrlFacts & Pick<SiteRow, 'default_site_space_id'>, siteSpace: Pick<SiteSpaceRow, 'id' | 'path'>) =>
  site.default_site_space_id === siteSpace.id ? siteUrl(config, site) : `${siteUrl(config, site)}/${siteSpace.path}`;

export const siteLocation = (config: QuireConfig, site: Pick<SiteRow, 'id' | 'organization_id'>) => `${config.publicUrl}/v1/orgs/${site.organization_id}/sites/${site.id}`;

/** GitBook's Site, with `permissions` for the caller's organization `role` (null: a visitor). */
export function presentSite(config: QuireConfig, site: SiteRow, role: Role | null) {
  const canEdit = roleAtLeast(role, 'create');
  return {
    object: 'site' as const,
    id: site.id,
    // Every feature of a self-hosted installation is there; GitBook's plans do not apply.
    type: 'ultimate' as const,
    appliedType: 'ultimate' as const,
    title: site.title,
    basename: site.basename,
    visibility: site.visibility,
    defaultLevel: 'inherit' as const,
    permissions: {
      view: roleAtLeast(role, 'read'),
      access: roleAtLeast(role, 'read'),
      edit: canEdit,
      create: canEdit,
      admin: canEdit,
      installIntegration: false,
      viewAdaptiveSchema: false,
      editAdaptiveSchema: false,
    },
    published: site.published,
    createdAt: iso(site.created_at),
    siteSpaces: site.site_spaces,
    features: [],
    urls: {
      location: siteLocation(config, site),
      app: `${config.appUrl}/o/${site.organization_id}/sites/${site.id}`,
      preview: siteUrl(config, site),
      ...(site.published ? { published: siteUrl(config, site) } : {}),
    },
  };
}

/** GitBook's SiteSpace; `space` is the space read with the caller's role on it. */
export function presentSiteSpace(config: QuireConfig, site: SiteRow, siteSpace: SiteSpaceRow, space: SpaceRow, spaceRole: Role | null) {
  return {
    object: 'site-space' as const,
    id: siteSpace.id,
    path: siteSpace.path,
    space: presentSpace(config, space, spaceRole),
    title: siteSpace.title ?? space.title,
    default: site.default_site_space_id === siteSpace.id,
    draft: false,
    hidden: siteSpace.hidden,
    urls: site.published ? { published: siteSpaceUrl(config, site, siteSpace) } : {},
  };
}

/** The site's complete customization: the defaults until it is first updated. */
export function presentCustomization(site: SiteRow) {
  return site.customization ?? defaultSiteCustomization();
}

/** GitBook's ShareLink; its published URL carries the key (absent without QUIRE_SECRET_KEY). */
export function presentShareLink(config: QuireConfig, site: SiteRow, link: SiteShareLinkRow) {
  const key = siteShareKey(config, site.id, link.id);
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: iso(link.created_at),
    ...(link.name !== null ? { name: link.name } : {}),
    active: link.active,
    urls: key ? { published: `${siteUrl(config, site)}?${SHARE_PARAM}=${key}` } : {},
  };
}

export function presentRedirect(redirect: SiteRedirectRow) {
  return {
    object: 'site-redirect' as const,
    id: redirect.id,
    source: redirect.source,
    draft: false,
    captureWildcard: redirect.capture_wildcard,
    permanent: redirect.permanent,
    destination: redirect.destination,
    createdAt: iso(redirect.created_at),
    updatedAt: iso(redirect.updated_at),
  };
}
