import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { DomainError, IntegrationDefinition, isRole, notFound, Role } from '@quire/domain';
import { IdentityQueries, OrganizationRow } from '@quire/read-models/identity/identity.queries';
import { IntegrationQueries } from '@quire/read-models/integrations/integrations.queries';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { z } from 'zod';
import { Caller, CurrentCaller, Public } from '../http/auth';
import { parseInput } from '../http/validation';
import { decodeAsset } from './integration-assets';
import { ICON_MAX_BYTES, integrationName, listIntegrationsQuery, PREVIEW_MAX_BYTES, publishIntegrationBody, PublishIntegrationInput } from './integrations.dto';
import { presentIntegration } from './integrations.presenter';
import { PublishIntegrationCommand } from './publish-integration/publish-integration.command';
import { UnpublishIntegrationCommand } from './unpublish-integration/unpublish-integration.command';

const assetHash = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256');

/**
 * GitBook's integrations: publish (create or update), unpublish, read, list. Publishing and
 * unpublishing need the admin role in the owning organization (or the instance administrator);
 * private integrations are visible to that organization's members only.
 */
@Controller('v1/integrations')
export class IntegrationsController {
  constructor(
    private readonly integrations: IntegrationQueries,
    private readonly identity: IdentityQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get()
  async list(@Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(listIntegrationsQuery, query, 'query');
    let owner: string | undefined;
    if (q.owner) {
      owner = (await this.findOrganization(q.owner))?.id;
      if (!owner) return { items: [] };
    }
    const page = await this.integrations.list(viewer(caller), { ...q, owner });
    return { ...page, items: page.items.map((row) => presentIntegration(this.config, row, caller)) };
  }

  @Get(':integrationName')
  async get(@Param('integrationName') name: string, @CurrentCaller() caller: Caller) {
    parseInput(integrationName, name, 'integrationName');
    return presentIntegration(this.config, await this.readable(name, caller), caller);
  }

  @Post(':integrationName')
  @HttpCode(200)
  async publish(@Param('integrationName') name: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    parseInput(integrationName, name, 'integrationName');
    const input = parseInput(publishIntegrationBody, body);
    const definition = toDefinition(input);
    // Organizations are invisible to non-members: 404 for them as for an unknown one.
    const organization = await this.findOrganization(input.organization);
    const role = organization ? await this.roleIn(organization.id, caller) : null;
    if (!organization || !role) throw notFound('The organization could not be found');
    if (role !== 'admin') throw new DomainError('forbidden', 'Publishing an integration requires the admin role in its organization');
    await this.commands.execute(new PublishIntegrationCommand(name, organization.id, definition, input.secrets, caller.user.id));
    return presentIntegration(this.config, await this.readable(name, caller), caller);
  }

  /** 205 when unpublished, 204 when there was nothing to unpublish (or nothing the caller may see). */
  @Delete(':integrationName')
  async unpublish(@Param('integrationName') name: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    parseInput(integrationName, name, 'integrationName');
    const ownerId = await this.integrations.ownerOf(name);
    if (!ownerId || !(await this.integrations.readable(name, viewer(caller)))) {
      await reply.status(204).send();
      return;
    }
    if ((await this.roleIn(ownerId, caller)) !== 'admin') {
      throw new DomainError('forbidden', 'Unpublishing an integration requires the admin role in its organization');
    }
    const { deleted } = await this.commands.execute(new UnpublishIntegrationCommand(name, caller.user.id));
    await reply.status(deleted ? 205 : 204).send();
  }

  /**
   * The images of an integration, by content hash. Public (an <img> sends no token): the
   * hash is only known to whoever could read the integration, and the bytes never change.
   */
  @Public()
  @Get(':integrationName/assets/:sha256')
  async asset(@Param('integrationName') name: string, @Param('sha256') sha256: string, @Res() reply: FastifyReply) {
    parseInput(integrationName, name, 'integrationName');
    parseInput(assetHash, sha256, 'sha256');
    const asset = await this.integrations.asset(name, sha256);
    if (!asset) throw notFound('Asset not found');
    await reply
      .header('content-type', asset.content_type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      // An SVG opened directly must not run script on the API's origin.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .send(Buffer.from(asset.bytes));
  }

  private async readable(name: string, caller: Caller) {
    const row = await this.integrations.readable(name, viewer(caller));
    if (!row) throw notFound(`Integration "${name}" not found`);
    return row;
  }

  /** GitBook's `organization` field: an organization id or its hostname. */
  private async findOrganization(idOrHostname: string): Promise<OrganizationRow | undefined> {
    return (await this.identity.organization(idOrHostname)) ?? (await this.identity.organizationByHostname(idOrHostname.toLowerCase()));
  }

  private async roleIn(organizationId: string, caller: Caller): Promise<Role | null> {
    if (caller.instanceAdmin) return 'admin';
    const role = await this.identity.memberRole(organizationId, caller.user.id);
    return isRole(role) ? role : null;
  }
}

const viewer = (caller: Caller) => ({ userId: caller.user.id, instanceAdmin: caller.instanceAdmin });

function toDefinition(input: PublishIntegrationInput): IntegrationDefinition {
  return {
    runtime: input.runtime,
    title: input.title,
    description: input.description,
    ...(input.summary !== undefined ? { summary: input.summary } : {}),
    visibility: input.visibility,
    target: input.target,
    scopes: input.scopes,
    categories: input.categories,
    ...(input.blocks ? { blocks: input.blocks } : {}),
    ...(input.contentSources ? { contentSources: input.contentSources } : {}),
    externalLinks: input.externalLinks,
    ...(input.configurations ? { configurations: input.configurations } : {}),
    ...(input.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: input.contentSecurityPolicy as IntegrationDefinition['contentSecurityPolicy'] } : {}),
    script: input.script,
    ...(input.icon ? { icon: decodeAsset(input.icon, 'icon', ICON_MAX_BYTES) } : {}),
    previewImages: input.previewImages.map((p, i) => decodeAsset(p, `previewImages.${i}`, PREVIEW_MAX_BYTES)),
  };
}
