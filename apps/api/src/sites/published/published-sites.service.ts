import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { PublishedSiteSpaceRow, SiteQueries, SiteRow } from '@quire/read-models/sites/sites.queries';
import { SHARE_PARAM } from '../../spaces/share-links';
import { shareLinkOpenedBy } from '../site-share-keys';

/** A published site as a visitor may see it. */
export interface VisibleSite {
  site: SiteRow;
  /** Shown site spaces, in order; the default one is the site's root. */
  siteSpaces: PublishedSiteSpaceRow[];
  /** The share link the visitor came through, for a share-link site. */
  shareLinkId?: string;
}

/** The site a URL names, and the rest of its path (segments below the site). */
interface SiteAddress {
  organizationId: string;
  basename: string;
  /** The URL path of the site's root, without a trailing slash. */
  sitePath: string;
  rest: string[];
}

/** One answer for every URL or site a visitor cannot open, so unpublished sites do not leak. */
const nothingPublished = () => notFound('No published content found at this URL');

/**
 * Published sites as visitors (and GitBook's renderer) reach them: by URL, or by id with the
 * share key of a share-link site. A site is visible while it is published and, for a share-link
 * site, to holders of an active share link's key; otherwise it is a 404 like a site that does
 * not exist.
 */
@Injectable()
export class PublishedSites {
  constructor(
    private readonly sites: SiteQueries,
    private readonly identity: IdentityQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /**
   * The site a published URL names: `<QUIRE_PUBLISHED_URL>/<org hostname or id>/<basename>/...`
   * or `<org custom hostname>/<basename>/...`. The scheme is not compared: GitBook's renderer
   * asks with https whatever the site is served with.
   */
  async byUrl(rawUrl: string): Promise<{ visible: VisibleSite; sitePath: string; rest: string[] }> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw nothingPublished();
    }
    const address = await this.address(url);
    if (!address) throw nothingPublished();
    const site = await this.sites.siteByBasename(address.organizationId, address.basename);
    if (!site) throw nothingPublished();
    const visible = await this.visible(site, url.searchParams.get(SHARE_PARAM) ?? undefined);
    return { visible, sitePath: address.sitePath, rest: address.rest };
  }

  /** The site by id, for a visitor holding `shareKey` (if any), or a 404. */
  async byId(organizationId: string, siteId: string, shareKey?: string): Promise<VisibleSite> {
    const site = await this.sites.site(siteId);
    if (!site || site.organization_id !== organizationId) throw nothingPublished();
    return this.visible(site, shareKey);
  }

  /** The site as a site token's holder sees it: the token proves the share key it was issued for. */
  async forToken(organizationId: string, siteId: string, shareLinkId: string | undefined): Promise<VisibleSite> {
    const site = await this.sites.site(siteId);
    if (!site || site.organization_id !== organizationId) throw nothingPublished();
    const opened = shareLinkId && (await this.sites.activeShareLinks(siteId)).some((l) => l.id === shareLinkId) ? shareLinkId : undefined;
    return this.shown(site, opened);
  }

  private async visible(site: SiteRow, shareKey: string | undefined): Promise<VisibleSite> {
    const opened = site.visibility === 'share-link' ? shareLinkOpenedBy(this.config, site.id, await this.sites.activeShareLinks(site.id), shareKey) : undefined;
    return this.shown(site, opened);
  }

  /** The site with its shown site spaces, if it is published to a visitor who opened `shareLinkId` (if any). */
  private async shown(site: SiteRow, shareLinkId: string | undefined): Promise<VisibleSite> {
    if (!site.published || (site.visibility === 'share-link' && !shareLinkId)) throw nothingPublished();
    const siteSpaces = await this.sites.publishedSiteSpaces(site.id);
    if (siteSpaces.length === 0) throw nothingPublished();
    return { site, siteSpaces, ...(site.visibility === 'share-link' ? { shareLinkId } : {}) };
  }

  private async address(url: URL): Promise<SiteAddress | undefined> {
    const segments = (path: string) => path.split('/').filter(Boolean).map(safeDecode);
    const base = new URL(this.config.publishedUrl);
    const basePath = base.pathname.replace(/\/+$/, '');
    if (url.host === base.host && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
      const [orgSlug, basename, ...rest] = segments(url.pathname.slice(basePath.length));
      if (!orgSlug || !basename) return undefined;
      const organization = (await this.identity.organizationByHostname(orgSlug)) ?? (await this.identity.organization(orgSlug));
      if (!organization) return undefined;
      return { organizationId: organization.id, basename, sitePath: `${basePath}/${encodeURIComponent(orgSlug)}/${encodeURIComponent(basename)}`, rest };
    }
    const organization = await this.identity.organizationByCustomHostname(url.hostname);
    if (!organization) return undefined;
    const [basename, ...rest] = segments(url.pathname);
    if (!basename) return undefined;
    return { organizationId: organization.id, basename, sitePath: `/${encodeURIComponent(basename)}`, rest };
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
