import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { OrganizationChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { listOrganizationChangeRequestsQuery } from './change-requests.dto';
import { presentChangeRequest } from './change-requests.presenter';

/**
 * GitBook's listChangeRequestsForOrganization: the change requests of every space of the
 * organization that the caller can read; `requestedReviewer=<their id>` lists those awaiting
 * their review. Members of the organization see it; others get 404.
 */
@Controller('v1/orgs/:organizationId/change-requests')
export class OrganizationChangeRequestsController {
  constructor(
    private readonly access: AccessService,
    private readonly changeRequests: OrganizationChangeRequestQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get()
  async list(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.organizationAccess(caller, organizationId);
    const q = parseInput(listOrganizationChangeRequestsQuery, query, 'query');
    // Quire links change requests to no site, site topic or style-guide run.
    if (q.site !== undefined || q.topic !== undefined || q.styleguideRun !== undefined) return { items: [] };
    const page = await this.changeRequests.list(organizationId, { userId: caller.user.id, instanceAdmin: caller.instanceAdmin }, { ...q, statuses: q.status });
    return { ...page, items: page.items.map((row) => presentChangeRequest(this.config, row)) };
  }
}
