import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { MaybePromise } from '@quire/platform/maybe-promise';
import { ReadCache, ReadCacheFollower } from '@quire/projections/read-cache';
import { PublishedSiteKey, PublishedSiteSpaceRow, PublishedSiteState, SiteQueries, SiteRow } from '@quire/read-models/sites/sites.queries';
import { SHARE_PARAM } from '../../spaces/share-links';
import { shareLinkOpenedBy } from '../site-share-keys';
import { SiteTokenClaims } from '../site-tokens/site-tokens';

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
  key: PublishedSiteKey;
  /** The URL path of the site's root, without a trailing slash. */
  sitePath: string;
  rest: string[];
}

/** One answer for every URL or site a visitor cannot open, so unpublished sites do not leak. */
const nothingPublished = () => notFound('No published content found at this URL');


/**
 * Published sites as visitors (and GitBook's renderer) reach them: by URL, or by id with the
 * share key of a share-link site, or with a site token. A site is visible while it is published
 * and, for a share-link site, to holders of an active share link's key (a site token carries the
 * link it was issued through); otherwise it is a 404 like a site that does not exist. Each
 * answer is one read of the site's state (SiteQueries.publishedSite).
 */
@Injectable()
export class PublishedSites {
  /**
   * Sites' states by how visitors name them, each evicted by the events about its site, its
   * organization (hostnames) or any of its spaces (live revision, title, deletion) once the
   * read models have applied them, in every process: GitBook's renderer reads one for each of
   * its requests.
   */
  private readonly states: ReadCache<PublishedSiteState>;

  constructor(
    private readonly sites: SiteQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    readCaches: ReadCacheFollower,
  ) {
    this.states = new ReadCache<PublishedSiteState>({ name: 'published-sites', max: 10_000, readModels: ['sites', 'spaces', 'identity'] }, readCaches);
  }

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
    const address = this.address(url);
    const state = address && (await this.state(address.key));
    const visible = state && this.visible(state, url.searchParams.get(SHARE_PARAM) ?? undefined);
    if (!address || !visible) throw nothingPublished();
    return { visible, sitePath: address.sitePath, rest: address.rest };
  }

  /** The site by id, for a visitor holding `shareKey` (if any), or a 404. */
  async byId(organizationId: string, siteId: string, shareKey?: string): Promise<VisibleSite> {
    const state = await this.ofOrganization(organizationId, siteId);
    const visible = state && this.visible(state, shareKey);
    if (!visible) throw nothingPublished();
    return visible;
  }

  /** The site as a site token's holder sees it: the token proves the share link it was issued through. */
  async forToken(claims: Pick<SiteTokenClaims, 'organization' | 'site' | 'shareLink'>): Promise<VisibleSite> {
    const visible = await this.seenWithToken(claims);
    if (!visible) throw nothingPublished();
    return visible;
  }

  /**
   * The spaces a site token may read now: those of its claims its site shows (none once it shows
   * nothing). The answer depends only on the claims and the site's state, both immutable objects
   * (verified claims are kept per token, a state is replaced, never changed, when an event evicts
   * it), so it is computed once per claims and state: a renderer's reads do not rebuild it.
   */
  spacesForToken(claims: SiteTokenClaims): MaybePromise<readonly string[]> {
    // Warm (the site's state kept), no promise: GitBook's renderer makes every page read with a site token.
    const kept = this.states.cached(siteStateKey({ siteId: claims.site }));
    if (kept) return this.tokenSpacesIn(inOrganization(kept, claims.organization), claims);
    return this.ofOrganization(claims.organization, claims.site).then((state) => this.tokenSpacesIn(state, claims));
  }

  private tokenSpacesIn(state: PublishedSiteState | undefined, claims: SiteTokenClaims): readonly string[] {
    const known = this.tokenSpaces.get(claims);
    if (known && known.state === state) return known.spaces;
    const visible = state && this.shownWithToken(state, claims);
    const shown = new Set(visible?.siteSpaces.map((s) => s.space_id));
    const spaces = claims.spaces.filter((id) => shown.has(id));
    this.tokenSpaces.set(claims, { state, spaces });
    return spaces;
  }

  private readonly tokenSpaces = new WeakMap<SiteTokenClaims, { state: PublishedSiteState | undefined; spaces: readonly string[] }>();

  private async seenWithToken(claims: Pick<SiteTokenClaims, 'organization' | 'site' | 'shareLink'>): Promise<VisibleSite | undefined> {
    const state = await this.ofOrganization(claims.organization, claims.site);
    return state && this.shownWithToken(state, claims);
  }

  private shownWithToken(state: PublishedSiteState, claims: Pick<SiteTokenClaims, 'shareLink'>): VisibleSite | undefined {
    return this.shown(state, claims.shareLink && state.activeShareLinks.includes(claims.shareLink) ? claims.shareLink : undefined);
  }

  private async ofOrganization(organizationId: string, siteId: string): Promise<PublishedSiteState | undefined> {
    return inOrganization(await this.state({ siteId }), organizationId);
  }

  private state(key: PublishedSiteKey): Promise<PublishedSiteState | undefined> {
    return this.states.get(siteStateKey(key), async () => {
      const state = await this.sites.publishedSite(key);
      return state && { value: state, tags: [state.site.id, state.site.organization_id, ...state.spaceIds] };
    });
  }

  private visible(state: PublishedSiteState, shareKey: string | undefined): VisibleSite | undefined {
    const { site, activeShareLinks } = state;
    const opened = site.visibility === 'share-link' ? shareLinkOpenedBy(this.config, site.id, activeShareLinks.map((id) => ({ id })), shareKey) : undefined;
    return this.shown(state, opened);
  }

  /** The site with its shown site spaces, if it is published to a visitor who opened `shareLinkId` (if any). */
  private shown({ site, siteSpaces }: PublishedSiteState, shareLinkId: string | undefined): VisibleSite | undefined {
    if (!site.published || (site.visibility === 'share-link' && !shareLinkId) || siteSpaces.length === 0) return undefined;
    return { site, siteSpaces, ...(site.visibility === 'share-link' ? { shareLinkId } : {}) };
  }

  private address(url: URL): SiteAddress | undefined {
    const segments = (path: string) => path.split('/').filter(Boolean).map(safeDecode);
    const base = new URL(this.config.publishedUrl);
    const basePath = base.pathname.replace(/\/+$/, '');
    if (url.host === base.host && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) {
      const [organization, basename, ...rest] = segments(url.pathname.slice(basePath.length));
      if (!organization || !basename) return undefined;
      return { key: { organization, basename }, sitePath: `${basePath}/${encodeURIComponent(organization)}/${encodeURIComponent(basename)}`, rest };
    }
    const [basename, ...rest] = segments(url.pathname);
    if (!basename) return undefined;
    return { key: { customHostname: url.hostname, basename }, sitePath: `/${encodeURIComponent(basename)}`, rest };
  }
}

/** The site's state if the site belongs to `organizationId`: a site named under another organization does not exist. */
function inOrganization(state: PublishedSiteState | undefined, organizationId: string): PublishedSiteState | undefined {
  return state?.site.organization_id === organizationId ? state : undefined;
}

/** A site state's cache key, by how it was named; by id (every site-token read) without JSON.stringify. */
function siteStateKey(key: PublishedSiteKey): string {
  if ('siteId' in key) return `id ${key.siteId}`;
  return JSON.stringify('customHostname' in key ? ['host', key.customHostname, key.basename] : ['org', key.organization, key.basename]);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
