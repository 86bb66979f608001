import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { notFound, SiteRedirectDestination } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { SiteQueries } from '@quire/read-models/sites/sites.queries';
import { SearchQueries } from '@quire/search';
import { Caller, CurrentCaller } from '../../http/auth';
import { entityId, parseInput } from '../../http/validation';
import { presentOrganizationSearch } from '../../search/search.presenter';
import { listQuery } from '../../permissions/permissions.dto';
import { SiteAccess } from '../site-access.service';
import { publishedSiteQuery, redirectBySourceQuery, searchedSiteSpaces, siteSearchBody } from '../sites.dto';
import { presentCustomization, presentRedirect, presentSite, presentSiteSpace, siteSpaceUrl } from '../sites.presenter';
import { PublishedSites, VisibleSite } from './published-sites.service';

/**
 * What GitBook's renderer reads of a published site: the site with its structure and
 * customization, its search, and its redirects. The caller is the renderer with the site's
 * token, or anyone signed in (with the share key of a share-link site); a site that is not
 * published, or not to them, is a 404.
 */
@Controller('v1/orgs/:organizationId/sites/:siteId')
export class PublishedSiteController {
  constructor(
    private readonly published: PublishedSites,
    private readonly siteAccess: SiteAccess,
    private readonly sites: SiteQueries,
    private readonly search: SearchQueries,
    private readonly content: ContentQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('published')
  async site(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { shareKey } = parseInput(publishedSiteQuery, query, 'query');
    const visible = await this.visible(caller, organizationId, siteId, shareKey);
    const { site, siteSpaces } = visible;
    const spaces = await this.siteAccess.spacesOf(caller, [...new Set(siteSpaces.map((s) => s.space_id))]);
    const structure = siteSpaces.flatMap((row) => {
      const found = spaces.get(row.space_id);
      return found ? [presentSiteSpace(this.config, site, row, found.space, found.role)] : [];
    });
    const customization = { ...presentCustomization(site), ...(site.customization_updated_at ? { updatedAt: new Date(site.customization_updated_at).toISOString() } : {}) };
    return {
      object: 'published-content-site' as const,
      site: presentSite(this.config, site, null),
      structure: { type: 'siteSpaces' as const, structure },
      // Site spaces have no customization of their own: each shows the site's.
      customizations: { site: customization, siteSpaces: Object.fromEntries(structure.map((s) => [s.id, customization])) },
      scripts: [],
    };
  }

  /** GitBook's searchSiteContent: the site spaces its scope names, grouped by space. */
  @Post('search')
  @HttpCode(200)
  async searchSite(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() query: unknown,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    const page = parseInput(listQuery, query, 'query');
    const input = parseInput(siteSearchBody, body);
    const { siteSpaces } = await this.visible(caller, organizationId, siteId, undefined);
    const wanted = new Set(searchedSiteSpaces(input, siteSpaces.map((s) => s.id)));
    const spaceIds = [...new Set(siteSpaces.filter((s) => wanted.has(s.id)).map((s) => s.space_id))];
    const spaces = await this.search.indexedSpaces(spaceIds);
    return presentOrganizationSearch(this.config, await this.search.searchSpaces(spaces, input.query, page), spaces);
  }

  /** GitBook's getSiteRedirectBySource: where a path of the site (relative to its root) goes. */
  @Get('redirect')
  async redirect(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { source, shareKey } = parseInput(redirectBySourceQuery, query, 'query');
    const visible = await this.visible(caller, organizationId, siteId, shareKey);
    const redirect = await this.sites.redirectFor(siteId, source);
    if (!redirect) throw notFound('No redirect for this path');
    // A wildcard source (`/old/*` or `/old*`) hands what it matched on to the destination.
    const suffix = redirect.capture_wildcard && redirect.source.endsWith('*') ? source.slice(redirect.source.length - 1).replace(/^\/+/, '') : '';
    const target = await this.targetOf(caller, visible, redirect.destination);
    if (!target) throw notFound('No redirect for this path');
    return { redirect: presentRedirect(redirect), target: suffix ? `${target.replace(/\/+$/, '')}/${suffix}` : target };
  }

  private async targetOf(caller: Caller, { site, siteSpaces }: VisibleSite, destination: SiteRedirectDestination): Promise<string | undefined> {
    if (destination.kind === 'external') return destination.url;
    const siteSpace = siteSpaces.find((s) => s.id === destination.siteSpaceId);
    if (!siteSpace) return undefined;
    const base = siteSpaceUrl(this.config, site, siteSpace);
    if (destination.kind === 'site-space') return base;
    const page = await this.content.livePage(siteSpace.space_id, caller.user.id, { id: destination.pageId }, 'none');
    const path = (page?.node as { path?: string } | null | undefined)?.path;
    return path === undefined ? undefined : path ? `${base}/${path}` : base;
  }

  /** The site as this caller may see it: a site token sees only its own site. */
  private async visible(caller: Caller, organizationId: string, siteId: string, shareKey: string | undefined): Promise<VisibleSite> {
    parseInput(entityId, organizationId, 'organizationId');
    parseInput(entityId, siteId, 'siteId');
    if (caller.site) {
      if (caller.site.site !== siteId || caller.site.organization !== organizationId) throw notFound('No published content found at this URL');
      return this.published.forToken(caller.site);
    }
    return this.published.byId(organizationId, siteId, shareKey);
  }
}
