import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { z } from 'zod';
import { DomainError, isRole, notFound, Role, ROLES } from '@quire/domain';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { paginationQuery } from '@quire/platform/http/pagination';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { presentMember, presentOrganization } from '../identity/identity.presenter';
import { customHostnameInput } from '../custom-hostnames/instance-hostnames';
import { RemoveCustomHostnameCommand } from '../custom-hostnames/remove-custom-hostname/remove-custom-hostname.command';
import { SetCustomHostnameCommand } from '../custom-hostnames/set-custom-hostname/set-custom-hostname.command';
import { CreateOrganizationCommand } from './create-organization/create-organization.command';
import { SetMemberRoleCommand } from './set-member-role/set-member-role.command';
import { SetOrganizationMergeRulesCommand } from './set-merge-rules/set-merge-rules.command';
import { organizationMergeRulesInput } from '../spaces/spaces.dto';

const createOrganizationBody = z.object({
  title: z.string().trim().min(2).max(255),
  hostname: z.string().regex(/^[a-z0-9-]{1,63}$/, 'must match ^[a-z0-9-]{1,63}$').optional(),
  customHostname: customHostnameInput.optional(),
});
/**
 * Of GitBook's updateOrganizationById body, Quire changes `mergeRules` and `customHostname` (its
 * own field: GitBook sets it elsewhere; null removes it). Other settings are refused rather than
 * ignored.
 */
const updateOrganizationBody = z.strictObject({
  customHostname: customHostnameInput.nullable().optional(),
  mergeRules: organizationMergeRulesInput.optional(),
});
/** GitBook's MemberRoleOrGuest: a role, or null for a guest. */
const setMemberRoleBody = z.object({ role: z.enum(ROLES).nullable() });
const listMembersQuery = z.object({ ...paginationQuery, role: z.enum(ROLES).optional() });

@Controller('v1/orgs')
export class OrganizationsController {
  constructor(
    private readonly identity: IdentityQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /** Quire's own: any signed-in user may found an organization, and administers it. */
  @Post()
  @HttpCode(201)
  async create(@Body() body: unknown, @CurrentCaller() caller: Caller, @Res({ passthrough: true }) reply: FastifyReply) {
    const input = parseInput(createOrganizationBody, body);
    const { organizationId } = await this.commands.execute(new CreateOrganizationCommand(input.title, input.hostname, caller.user.id, input.customHostname));
    void reply.header('location', `${this.config.publicUrl}/v1/orgs/${organizationId}`);
    return presentOrganization(this.config, (await this.identity.organization(organizationId))!, 'admin');
  }

  @Get(':organizationId')
  async get(@Param('organizationId') organizationId: string, @CurrentCaller() caller: Caller) {
    const { org, role } = await this.visible(organizationId, caller);
    return presentOrganization(this.config, org, role);
  }

  /** GitBook's updateOrganizationById, for `customHostname` and `mergeRules`; the organization's admins (the domain checks). */
  @Patch(':organizationId')
  async update(@Param('organizationId') organizationId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.visible(organizationId, caller);
    const input = parseInput(updateOrganizationBody, body);
    if (input.customHostname) {
      await this.commands.execute(new SetCustomHostnameCommand(organizationId, input.customHostname, caller.user.id, caller.instanceAdmin));
    } else if (input.customHostname === null) {
      await this.commands.execute(new RemoveCustomHostnameCommand(organizationId, undefined, caller.user.id, caller.instanceAdmin));
    }
    if (input.mergeRules) await this.commands.execute(new SetOrganizationMergeRulesCommand(organizationId, input.mergeRules, caller.user.id, caller.instanceAdmin));
    const { org, role } = await this.visible(organizationId, caller);
    return presentOrganization(this.config, org, role);
  }

  @Get(':organizationId/members')
  async members(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.visible(organizationId, caller);
    const q = parseInput(listMembersQuery, query, 'query');
    const page = await this.identity.members(organizationId, q);
    return { ...page, items: page.items.map((m) => presentMember(this.config, m, { private: caller.instanceAdmin })) };
  }

  /** GitBook's updateMemberInOrganizationById; adds the user as a member when absent. */
  @Patch(':organizationId/members/:userId')
  async setRole(@Param('organizationId') organizationId: string, @Param('userId') userId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { role } = await this.visible(organizationId, caller);
    if (role !== 'admin') throw new DomainError('forbidden', 'Only organization admins can change members');
    parseInput(entityId, userId, 'userId');
    const input = parseInput(setMemberRoleBody, body);
    const user = await this.identity.user(userId);
    if (!user) throw notFound('User not found');
    const before = await this.identity.member(organizationId, userId);
    await this.commands.execute(new SetMemberRoleCommand(organizationId, userId, input.role, caller.user.id));
    if (input.role === null) {
      // A guest: no membership row any more; they keep their explicit grants on spaces and collections.
      return presentMember(this.config, { user_id: userId, joined_at: before?.joined_at ?? new Date(), user, role: null }, { private: caller.instanceAdmin });
    }
    return presentMember(this.config, (await this.identity.member(organizationId, userId))!, { private: caller.instanceAdmin });
  }

  /** Members see their organization; others get 404 (its existence is not revealed). */
  private async visible(organizationId: string, caller: Caller) {
    const org = await this.identity.organization(organizationId);
    const memberRole = org ? await this.identity.memberRole(organizationId, caller.user.id) : undefined;
    const role: Role | null = caller.instanceAdmin ? 'admin' : isRole(memberRole) ? memberRole : null;
    if (!org || !role) throw notFound('Organization not found');
    return { org, role };
  }
}
