import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { Public } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { SHARE_PARAM } from '../../spaces/share-links';
import { SiteTokens } from '../site-tokens/site-tokens';
import { resolvePublishedUrlBody, resolvePublishedUrlQuery } from '../sites.dto';
import { siteSpaceUrl } from '../sites.presenter';
import { PublishedSites } from './published-sites.service';

/**
 * GitBook's resolvePublishedContentByUrl (POST) and getPublishedContentByUrl (GET): which site,
 * site space, space and revision a published URL shows, the page path below it, and a site
 * token (a JWT GitBook's renderer decodes, then sends as its bearer token to read that site's
 * content). Anyone may ask, as anyone may open a published site; an unpublished site, a
 * share-link site without a valid key, or any other URL is a 404 and no token is issued.
 */
@Controller('v1/urls/published')
export class ResolvePublishedUrlController {
  constructor(
    private readonly published: PublishedSites,
    private readonly tokens: SiteTokens,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post()
  @Public()
  @HttpCode(200)
  async resolvePost(@Body() body: unknown) {
    return this.resolve(parseInput(resolvePublishedUrlBody, body).url);
  }

  @Get()
  @Public()
  async resolveGet(@Query() query: unknown) {
    return this.resolve(parseInput(resolvePublishedUrlQuery, query, 'query').url);
  }

  private async resolve(url: string) {
    const { visible, sitePath, rest } = await this.published.byUrl(url);
    const { site, siteSpaces, shareLinkId } = visible;
    // The first segment names a site space by its path; otherwise the path is in the default one.
    const named = rest.length > 0 ? siteSpaces.find((s) => s.path === rest[0] && s.id !== site.default_site_space_id) : undefined;
    const siteSpace = named ?? siteSpaces.find((s) => s.id === site.default_site_space_id) ?? siteSpaces[0];
    const pathname = (named ? rest.slice(1) : rest).join('/');
    const basePath = named ? `${sitePath}/${named.path}/` : `${sitePath}/`;
    const shareKey = shareLinkId ? new URL(url).searchParams.get(SHARE_PARAM) ?? undefined : undefined;
    const apiToken = await this.tokens.issue({
      kind: 'site',
      organization: site.organization_id,
      site: site.id,
      siteSpace: siteSpace.id,
      space: siteSpace.space_id,
      spaces: [...new Set(siteSpaces.map((s) => s.space_id))],
      ...(shareLinkId ? { shareLink: shareLinkId } : {}),
    });
    const canonicalBase = siteSpaceUrl(this.config, site, siteSpace);
    // The renderer resolves a URL's shorter prefixes too, and keeps a complete answer as final:
    // the site's bare root is only complete when no site space could be named below it.
    const complete = named !== undefined || rest.length > 0 || siteSpaces.length === 1;
    return {
      organization: site.organization_id,
      site: site.id,
      siteSpace: siteSpace.id,
      space: siteSpace.space_id,
      revision: siteSpace.revision,
      pathname,
      basePath,
      siteBasePath: `${sitePath}/`,
      canonicalUrl: pathname ? `${canonicalBase}/${pathname}` : canonicalBase,
      complete,
      apiToken,
      ...(shareKey ? { shareKey } : {}),
    };
  }
}
