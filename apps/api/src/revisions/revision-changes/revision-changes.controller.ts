import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { ChangeRequestAccess } from '../../change-requests/change-request-access.service';
import { presentChangeRequest } from '../../change-requests/change-requests.presenter';
import { ContentReader } from '../../content/content-reader';
import { changeRequestChangesQuery, revisionChangesQuery } from './revision-changes.dto';
import { presentSemanticChanges } from './revision-changes.presenter';
import { RevisionChanges } from './revision-changes';

/** GitBook's semantic changes: of a revision against its (first) parent, of a change request against its base. */
@Controller('v1/spaces/:spaceId')
export class RevisionChangesController {
  constructor(
    private readonly access: AccessService,
    private readonly changeRequestAccess: ChangeRequestAccess,
    private readonly reader: ContentReader,
    private readonly changeRequests: ChangeRequestQueries,
    private readonly changes: RevisionChanges,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /** A merge revision is compared with the space's revision it was merged into, so its changes are what the merge brought. */
  @Get('revisions/:revisionId/changes')
  async revisionChanges(@Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(revisionChangesQuery, query, 'query');
    await this.access.spaceAccess(caller, spaceId, 'read');
    const revision = await this.reader.requireRevision(spaceId, revisionId);
    const changes = await this.changes.between(spaceId, revision.parents[0], revisionId);
    const merged = revision.kind === 'merge' && revision.merged_from ? await this.changeRequests.byIdOrNumber(spaceId, revision.merged_from) : undefined;
    const revisions = { before: revision.parents[0], after: revisionId };
    return presentSemanticChanges({ config: this.config, spaceId, metadata: q.metadata }, changes, q.limit, revisions, merged ? presentChangeRequest(this.config, merged) : undefined);
  }

  /** From the change request's base (the space revision it started from or was last updated with) to its head. */
  @Get('change-requests/:changeRequestId/changes')
  async changeRequestChanges(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(changeRequestChangesQuery, query, 'query');
    const { row } = await this.changeRequestAccess.changeRequest(caller, spaceId, key, 'read');
    const base = row.revision_merged_ancestor ?? row.revision_initial;
    const changes = await this.changes.between(spaceId, base, row.revision);
    return presentSemanticChanges({ config: this.config, spaceId, metadata: true }, changes, q.limit, { before: base, after: row.revision });
  }
}
