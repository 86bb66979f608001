import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { notFound } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { SiteQueries, SiteRow, SiteSpaceRow } from '@quire/read-models/sites/sites.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput, queryBool } from '../http/validation';
import { ChangeSiteCommand } from './change-site/change-site.command';
import { SiteAccess } from './site-access.service';
import { addSiteSpaceBody, updateSiteSpaceBody } from './sites.dto';
import { presentSiteSpace } from './sites.presenter';
import { z } from 'zod';
import { paginationQuery } from '@quire/platform/http/pagination';

const listSiteSpacesQuery = z.object({ ...paginationQuery, default: queryBool.optional(), shareKey: z.string().max(500).optional() });

/** The spaces a site shows (GitBook's site spaces): add, list, update, remove. */
@Controller('v1/orgs/:organizationId/sites/:siteId/site-spaces')
export class SiteSpacesController {
  constructor(
    private readonly siteAccess: SiteAccess,
    private readonly sites: SiteQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Post()
  @HttpCode(201)
  async add(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const input = parseInput(addSiteSpaceBody, body);
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const space = await this.siteAccess.spaceForSite(caller, input.spaceId!);
    const siteSpaceId = newId();
    const candidate = { spaceId: space.id, organizationId: space.organization_id, title: input.title ?? space.title };
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'AddSiteSpace', siteSpaceId, space: candidate }, caller.user.id));
    return this.show(caller, organizationId, siteId, siteSpaceId);
  }

  /** A site has at most 100 site spaces: they are listed in one page, in the order they were added. */
  @Get()
  async list(@Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(listSiteSpacesQuery, query, 'query');
    const { site } = await this.siteAccess.site(caller, organizationId, siteId);
    const rows = (await this.sites.siteSpaces(siteId)).filter((s) => q.default === undefined || (site.default_site_space_id === s.id) === q.default);
    return { items: await this.present(caller, site, rows) };
  }

  @Patch(':siteSpaceId')
  async update(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    const input = parseInput(updateSiteSpaceBody, body);
    parseInput(entityId, siteSpaceId, 'siteSpaceId');
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const space = input.spaceId ? await this.siteAccess.spaceForSite(caller, input.spaceId) : undefined;
    const changes = {
      path: input.path,
      hidden: input.hidden,
      ...(space ? { space: { spaceId: space.id, organizationId: space.organization_id, title: space.title } } : {}),
    };
    await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'UpdateSiteSpace', siteSpaceId, changes }, caller.user.id));
    return this.show(caller, organizationId, siteId, siteSpaceId);
  }

  /** 205 when the site space was removed, 204 when there was none. */
  @Delete(':siteSpaceId')
  async remove(
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Param('siteSpaceId') siteSpaceId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    parseInput(entityId, siteSpaceId, 'siteSpaceId');
    await this.siteAccess.site(caller, organizationId, siteId, 'create');
    const { changed } = await this.commands.execute(new ChangeSiteCommand(siteId, { type: 'RemoveSiteSpace', siteSpaceId }, caller.user.id));
    await reply.status(changed ? 205 : 204).send();
  }

  private async show(caller: Caller, organizationId: string, siteId: string, siteSpaceId: string) {
    const { site } = await this.siteAccess.site(caller, organizationId, siteId);
    const row = (await this.sites.siteSpaces(siteId)).find((s) => s.id === siteSpaceId);
    if (!row) throw notFound('Site space not found');
    return (await this.present(caller, site, [row]))[0];
  }

  private async present(caller: Caller, site: SiteRow, rows: SiteSpaceRow[]) {
    const spaces = await this.siteAccess.spacesOf(caller, [...new Set(rows.map((r) => r.space_id))]);
    return rows.flatMap((row) => {
      const found = spaces.get(row.space_id);
      return found ? [presentSiteSpace(this.config, site, row, found.space, found.role)] : [];
    });
  }
}
