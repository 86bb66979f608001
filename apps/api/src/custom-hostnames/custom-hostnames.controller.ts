import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { DomainError, isRole, notFound, Role } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { IdentityQueries, OrganizationRow } from '@quire/read-models/identity/identity.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { customHostnameInput } from './instance-hostnames';
import { presentCustomHostname } from './custom-hostnames.presenter';
import { RemoveCustomHostnameCommand } from './remove-custom-hostname/remove-custom-hostname.command';

/**
 * GitBook's custom-hostname operations. A custom hostname is set on its organization (Quire's
 * `customHostname` in `POST /v1/orgs` and `PATCH /v1/orgs/{organizationId}`); here it is read by
 * the organization's members (404 for everyone else, as for an unknown hostname), revalidated and
 * removed by its admins.
 */
@Controller('v1/custom-hostnames')
export class CustomHostnamesController {
  constructor(
    private readonly identity: IdentityQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get(':hostname')
  async get(@Param('hostname') hostname: string, @CurrentCaller() caller: Caller) {
    const { organization } = await this.visible(hostname, caller);
    return presentCustomHostname(this.config, organization);
  }

  /** GitBook's DNS revalidation: Quire checks no DNS (the operator's proxy serves the host), so there is nothing to redo. */
  @Patch(':hostname')
  @HttpCode(204)
  async revalidate(@Param('hostname') hostname: string, @CurrentCaller() caller: Caller): Promise<void> {
    const { role } = await this.visible(hostname, caller);
    if (role !== 'admin') throw new DomainError('forbidden', "Only the organization's admins can revalidate its custom hostname");
  }

  /** 205 when removed, 204 when there was nothing to remove (or nothing the caller may see), 403 for members below admin. */
  @Delete(':hostname')
  async remove(@Param('hostname') hostname: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    const found = await this.find(hostname, caller);
    if (!found) {
      await reply.status(204).send();
      return;
    }
    const { removed } = await this.commands.execute(
      new RemoveCustomHostnameCommand(found.organization.id, found.organization.custom_hostname, caller.user.id, caller.instanceAdmin),
    );
    await reply.status(removed ? 205 : 204).send();
  }

  private async visible(hostname: string, caller: Caller) {
    const found = await this.find(hostname, caller);
    if (!found) throw notFound('Custom hostname not found');
    return found;
  }

  /** The organization the hostname points to and the caller's role in it, when they are a member. */
  private async find(hostname: string, caller: Caller): Promise<{ organization: OrganizationRow & { custom_hostname: string }; role: Role } | undefined> {
    const parsed = customHostnameInput.safeParse(hostname);
    if (!parsed.success) return undefined;
    const organization = await this.identity.organizationByCustomHostname(parsed.data);
    if (!organization?.custom_hostname) return undefined;
    const memberRole = await this.identity.memberRole(organization.id, caller.user.id);
    const role: Role | null = caller.instanceAdmin ? 'admin' : isRole(memberRole) ? memberRole : null;
    return role ? { organization: { ...organization, custom_hostname: organization.custom_hostname }, role } : undefined;
  }
}
