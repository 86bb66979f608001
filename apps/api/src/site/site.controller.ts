import { Controller, Get, Param, Query, Req, Res, Type } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { QuireConfig } from '@quire/platform/config/config';
import { Public } from '../http/auth';
import { SitePages } from './site-pages';
import { siteBasePath } from './site-urls';

type Reply = FastifyReply;

/**
 * The published docs sites, under the path of QUIRE_PUBLISHED_URL (`/sites` by default), each
 * below its organization segment: `<org>/<space>[/<page path>]`, `<org>/<space>/~/files/...`,
 * `<org>/<space>/~/search` (SitePages answers). Sites on custom hostnames: custom-host-sites.ts.
 */
@Public()
export class SiteController {
  constructor(private readonly pages: SitePages) {}

  @Get(':org/:spaceId')
  root(@Param('org') org: string, @Param('spaceId') spaceId: string, @Req() req: FastifyRequest, @Res() reply: Reply) {
    return this.pages.page({ organization: org }, spaceId, '', req, reply);
  }

  @Get([':org/:spaceId/~/files/:fileId', ':org/:spaceId/~/files/:fileId/:name'])
  file(@Param('org') org: string, @Param('spaceId') spaceId: string, @Param('fileId') fileId: string, @Query('v') version: unknown, @Req() req: FastifyRequest, @Res() reply: Reply) {
    return this.pages.file({ organization: org }, spaceId, fileId, version, req, reply);
  }

  @Get(':org/:spaceId/~/search')
  searchPage(@Param('org') org: string, @Param('spaceId') spaceId: string, @Query('q') q: unknown, @Req() req: FastifyRequest, @Res() reply: Reply) {
    return this.pages.searchPage({ organization: org }, spaceId, q, req, reply);
  }

  @Get(':org/:spaceId/~/search.json')
  searchJson(@Param('org') org: string, @Param('spaceId') spaceId: string, @Query('query') q: unknown, @Req() req: FastifyRequest, @Res() reply: Reply) {
    return this.pages.searchJson({ organization: org }, spaceId, q, req, reply);
  }

  @Get(':org/:spaceId/*')
  pageByPath(@Param('org') org: string, @Param('spaceId') spaceId: string, @Param('*') path: string, @Req() req: FastifyRequest, @Res() reply: Reply) {
    return this.pages.page({ organization: org }, spaceId, path, req, reply);
  }
}

/**
 * The controller mounted at the path of QUIRE_PUBLISHED_URL, known only once the config is
 * loaded (decorators run at import); a subclass per path keeps SiteController itself unmounted.
 */
export function siteController(config: QuireConfig): Type {
  @Controller(siteBasePath(config.publishedUrl))
  class PublishedSiteController extends SiteController {}
  return PublishedSiteController;
}
