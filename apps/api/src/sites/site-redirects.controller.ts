import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { notFound } from '@quire/domain';
import { newId } from '@quire/platform/ids/ids';
import { SiteQueries } from '@quire/read-models/sites/sites.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { listQuery } from '../permissions/permissions.dto';
import { ChangeSiteCommand } from './change-site/change-site.command';
import { SiteAccess } from './site-access.service';
import { createRedirectBody, updateRedirectBody } from './sites.dto';
import { presentRedirect } from './sites.presenter';

/** Redirects of a site: a path of the site (or every path below a `/*` source) sent elsewhere. */
@Controller('v1/orgs/:organizationId/sites/:siteId/redirects')
export class SiteRedirectsController {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly sites: SiteQueries,
    private readonly commands: CommandBus,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { draft: _draft, ...input } = parseInput(createRedirectBody, body);
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const redirectId = newId();
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'CreateSiteRedirect', redirectId, ...input }, caller.user.id));
    return this.show(siteId, redirectId);
  }

  @Get()
  async list(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(listQuery, query, 'query');
    await this.siteAccess.site(caller, organizationId, siteId);
    const page = await this.sites.redirects(siteId, q);
    return { ...page, items: page.items.map(presentRedirect) };
  }

  @Patch(':siteRedirectId')
  async update(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteRedirectId') redirectId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    const { draft: _draft, ...changes } = parseInput(updateRedirectBody, body);
    parseInput(entityId, redirectId, 'siteRedirectId');
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UpdateSiteRedirect', redirectId, changes }, caller.user.id));
    return this.show(siteId, redirectId);
  }

  /** 205 when the redirect was deleted, 204 when there was none. */
  @Delete(':siteRedirectId')
  async remove(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteRedirectId') redirectId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    parseInput(entityId, redirectId, 'siteRedirectId');
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const { changed } = await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'DeleteSiteRedirect', redirectId }, caller.user.id));
    await reply.status(changed ? 205 : 204).send();
  }

  private async show(siteId: string, redirectId: string) {
    const redirect = await this.sites.redirect(siteId, redirectId);
    if (!redirect) throw notFound('Redirect not found');
    return presentRedirect(redirect);
  }
}
