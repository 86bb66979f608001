import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { notFound, unprocessable } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { SiteQueries } from '@quire/read-models/sites/sites.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { listQuery } from '../permissions/permissions.dto';
import { ChangeSiteCommand } from './change-site/change-site.command';
import { SiteAccess } from './site-access.service';
import { createShareLinkBody, updateShareLinkBody } from './sites.dto';
import { presentShareLink } from './sites.presenter';

/** Share links of a site: whoever holds one opens the site while it is `share-link` and published. */
@Controller('v1/orgs/:organizationId/sites/:siteId/share-links')
export class SiteShareLinksController {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly sites: SiteQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const input = parseInput(createShareLinkBody, body);
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    if (!this.config.secretKey) throw unprocessable('Share links need QUIRE_SECRET_KEY to be set on this installation');
    const shareLinkId = newId();
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'CreateSiteShareLink', shareLinkId, name: input.name }, caller.user.id));
    return this.show(caller, organizationId, siteId, shareLinkId);
  }

  @Get()
  async list(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(listQuery, query, 'query');
    const { site } = await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const page = await this.sites.shareLinks(siteId, q);
    return { ...page, items: page.items.map((link) => presentShareLink(this.config, site, link)) };
  }

  @Patch(':shareLinkId')
  async update(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    const changes = parseInput(updateShareLinkBody, body);
    parseInput(entityId, shareLinkId, 'shareLinkId');
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UpdateSiteShareLink', shareLinkId, changes }, caller.user.id));
    return this.show(caller, organizationId, siteId, shareLinkId);
  }

  /** 205 when the link was deleted (it opens nothing from now on), 204 when there was none. */
  @Delete(':shareLinkId')
  async remove(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('shareLinkId') shareLinkId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    parseInput(entityId, shareLinkId, 'shareLinkId');
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const { changed } = await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'DeleteSiteShareLink', shareLinkId }, caller.user.id));
    await reply.status(changed ? 205 : 204).send();
  }

  private async show(caller: Caller, organizationId: string, siteId: string, shareLinkId: string) {
    const { site } = await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const link = await this.sites.shareLink(siteId, shareLinkId);
    if (!link) throw notFound('Share link not found');
    return presentShareLink(this.config, site, link);
  }
}
