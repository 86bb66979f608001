import { ChangeSiteHandler } from './change-site/change-site.handler';
import { CreateSiteHandler } from './create-site/create-site.handler';
import { SiteAccess } from './site-access.service';
import { SiteRedirectsController } from './site-redirects.controller';
import { SiteShareLinksController } from './site-share-links.controller';
import { SiteSpacesController } from './site-spaces.controller';
import { SiteTokens } from './site-tokens/site-tokens';
import { SiteVisitors } from './site-tokens/site-visitors';
import { SitesController } from './sites.controller';
import { PublishedSites } from './published/published-sites.service';
import { ResolvePublishedUrlController } from './published/resolve-published-url.controller';
import { PublishedSiteController } from './published/published-site.controller';

/** Sites: their management API, and the site tokens that GitBook's renderer reads with. */
export const sitesControllers = [SitesController, SiteSpacesController, SiteShareLinksController, SiteRedirectsController, ResolvePublishedUrlController, PublishedSiteController];
export const sitesProviders = [CreateSiteHandler, ChangeSiteHandler, SiteAccess, SiteTokens, SiteVisitors, PublishedSites];
