import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { SearchQueries } from '@quire/search';
import { Caller, CurrentCaller } from '../http/auth';
import { parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { searchQuery } from './search.dto';
import { presentOrganizationSearch, presentSpaceSearch } from './search.presenter';

/**
 * Full-text search of a space's live content, and of every space of an organization that the
 * caller can read (a space they cannot read never shows, not even as a count).
 */
@Controller('v1')
export class SearchController {
  constructor(
    private readonly access: AccessService,
    private readonly search: SearchQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('spaces/:spaceId/search')
  async searchSpace(@Param('spaceId') spaceId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    await this.access.spaceAccess(caller, spaceId, 'read');
    const q = parseInput(searchQuery, query, 'query');
    return presentSpaceSearch(this.config, await this.search.searchSpace(spaceId, q.query, { page: q.page, limit: q.limit }));
  }

  @Get('orgs/:organizationId/search')
  async searchOrganization(@Param('organizationId') organizationId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    // The caller's spaces are read alongside the access check (a round trip less), and used only once it has passed.
    const [, spaces] = await Promise.all([
      this.access.organizationAccess(caller, organizationId, 'read'),
      this.search.readableSpaces(organizationId, { userId: caller.user.id, instanceAdmin: caller.instanceAdmin }),
    ]);
    const q = parseInput(searchQuery, query, 'query');
    const result = await this.search.searchSpaces(spaces, q.query, { page: q.page, limit: q.limit });
    return presentOrganizationSearch(this.config, result, spaces);
  }
}
