import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { SiteQueries } from '@quire/read-models/sites/sites.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { notFound } from '@quire/domain';
import { ChangeSiteCommand } from './change-site/change-site.command';
import { CreateSiteCommand } from './create-site/create-site.command';
import { SiteAccess } from './site-access.service';
import { createSiteBody, listSitesQuery, siteCustomizationBody, updateSiteBody } from './sites.dto';
import { presentCustomization, presentSite, siteLocation } from './sites.presenter';

const DEFAULT_SITE_TITLE = 'Untitled site';

/** GitBook's sites of an organization: create, list, read, update, delete, publish and customize. */
@Controller('v1/orgs/:organizationId/sites')
export class SitesController {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly sites: SiteQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Param('organizationId') organizationId: string, @Body() body: unknown, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    const input = parseInput(createSiteBody, body);
    const role = await this.siteAccess.organization(caller, organizationId, 'create');
    const spaces = await Promise.all((input.spaces ?? []).map((spaceId) => this.siteAccess.spaceForSite(caller, spaceId)));
    if (input.basename) await this.siteAccess.assertBasenameFree(organizationId, input.basename);
    const title = input.title ?? DEFAULT_SITE_TITLE;
    const { siteId } = await this.commands.execute(new CreateSiteCommand({ organizationId, title, basename: input.basename, visibility: input.visibility }, caller.user.id));
    for (const space of spaces) {
      const candidate = { spaceId: space.id, organizationId: space.organization_id, title: space.title };
      await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'AddSiteSpace', siteSpaceId: newId(), space: candidate }, caller.user.id));
    }
    const site = (await this.sites.site(siteId))!;
    void reply.header('location', siteLocation(this.config, site));
    return presentSite(this.config, site, role);
  }

  @Get()
  async list(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const role = await this.siteAccess.organization(caller, organizationId);
    const q = parseInput(listSitesQuery, query, 'query');
    const page = await this.sites.inOrganization(organizationId, q);
    return { ...page, items: page.items.map((s) => presentSite(this.config, s, role)) };
  }

  @Get(':siteId')
  async get(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @CurrentCaller() caller: Caller) {
    const { site, role } = await this.siteAccess.site(caller, organizationId, siteId);
    return presentSite(this.config, site, role);
  }

  @Patch(':siteId')
  async update(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const input = parseInput(updateSiteBody, body);
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    if (input.basename) await this.siteAccess.assertBasenameFree(organizationId, input.basename, siteId);
    const { defaultSiteSpace, ...changes } = input;
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UpdateSite', changes }, caller.user.id));
    if (defaultSiteSpace) await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UpdateSiteSpace', siteSpaceId: defaultSiteSpace, changes: { default: true } }, caller.user.id));
    return this.get(organizationId, siteId, caller);
  }

  /** 205 when the site was deleted, 204 when there was nothing to delete (it is already gone). */
  @Delete(':siteId')
  async remove(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    await this.siteAccess.organization(caller, organizationId, 'create');
    parseInput(entityId, siteId, 'siteId');
    const site = await this.sites.site(siteId);
    if (!site) return reply.status(204).send();
    if (site.organization_id !== organizationId) throw notFound('Site not found');
    const { changed } = await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'DeleteSite' }, caller.user.id));
    await reply.status(changed ? 205 : 204).send();
  }

  @Post(':siteId/publish')
  @HttpCode(200)
  async publish(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @CurrentCaller() caller: Caller) {
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'PublishSite' }, caller.user.id));
    return this.get(organizationId, siteId, caller);
  }

  @Post(':siteId/unpublish')
  @HttpCode(200)
  async unpublish(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @CurrentCaller() caller: Caller) {
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UnpublishSite' }, caller.user.id));
    return this.get(organizationId, siteId, caller);
  }

  @Get(':siteId/customization')
  async customization(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @CurrentCaller() caller: Caller) {
    const { site } = await this.siteAccess.site(caller, organizationId, siteId);
    return presentCustomization(site);
  }

  @Put(':siteId/customization')
  async customize(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const customization = parseInput(siteCustomizationBody, body);
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UpdateSiteCustomization', customization }, caller.user.id));
    return this.customization(organizationId, siteId, caller);
  }
}
