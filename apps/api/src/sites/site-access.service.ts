import { Injectable } from '@nestjs/common';
import { conflict, notFound, Role } from '@quire/domain';
import { SiteQueries, SiteRow } from '@quire/read-models/sites/sites.queries';
import { AccessQueries, SpaceAccessRow } from '@quire/read-models/permissions/permissions.queries';
import { Caller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';

/**
 * Who may manage a site: members of its organization read it, and those with the create role
 * there change it (as they create spaces). A site of another organization does not exist.
 */
@Injectable()
export class SiteAccess {
  constructor(
    private readonly access: AccessService,
    private readonly accessQueries: AccessQueries,
    private readonly sites: SiteQueries,
  ) {}

  /** The caller's role in the organization, which is their role on its sites. */
  async organization(caller: Caller, organizationId: string, needed: Role = 'read'): Promise<Role> {
    return (await this.access.organizationAccess(caller, organizationId, needed)).role;
  }

  async site(caller: Caller, organizationId: string, siteId: string, needed: Role = 'read'): Promise<{ site: SiteRow; role: Role }> {
    const role = await this.organization(caller, organizationId, needed);
    parseInput(entityId, siteId, 'siteId');
    const site = await this.sites.site(siteId);
    if (!site || site.organization_id !== organizationId) throw notFound('Site not found');
    return { site, role };
  }

  /** A basename names one site of an organization: its URL. */
  async assertBasenameFree(organizationId: string, basename: string, siteId?: string): Promise<void> {
    const holder = await this.sites.siteByBasename(organizationId, basename);
    if (holder && holder.id !== siteId) throw conflict(`Another site of this organization has the basename "${basename}"`);
  }

  /** A space the caller names for a site: they must be able to read it (404 otherwise). */
  async spaceForSite(caller: Caller, spaceId: string): Promise<SpaceAccessRow> {
    return (await this.access.spaceAccess(caller, spaceId)).space;
  }

  /** The spaces a site shows, each with the caller's role on it (null when they have none). */
  async spacesOf(caller: Caller, spaceIds: string[]): Promise<Map<string, { space: SpaceAccessRow; role: Role | null }>> {
    const rows = await Promise.all(spaceIds.map((id) => this.accessQueries.space(id, caller.user.id)));
    const out = new Map<string, { space: SpaceAccessRow; role: Role | null }>();
    for (const space of rows) {
      if (space) out.set(space.id, { space, role: caller.site ? (caller.site.spaces.includes(space.id) ? 'read' : null) : this.access.roleOf(caller, space) });
    }
    return out;
  }
}
