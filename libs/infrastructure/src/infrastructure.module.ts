import { DynamicModule, Global, Module } from '@nestjs/common';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ReadCacheFollower } from '@quire/projections/read-cache';
import { ContentStore } from '@quire/content/store';
import { JobQueues } from '@quire/jobs/job-queues';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { GitImportQueries } from '@quire/read-models/git-imports/git-imports.queries';
import { GitExportQueries } from '@quire/read-models/git-exports/git-exports.queries';
import { RevisionHistoryQueries } from '@quire/read-models/revisions/revision-history.queries';
import { Runtime } from './runtime';
import { DB, EVENT_STORE, LOGGER, PROJECTOR, QUIRE_CONFIG, REDIS } from './tokens';
import { SpaceQueries } from '@quire/read-models/spaces/spaces.queries';
import { CollectionQueries } from '@quire/read-models/collections/collections.queries';
import { AccessQueries } from '@quire/read-models/permissions/permissions.queries';
import { ChangeRequestQueries, OrganizationChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { ChangeRequestReviewQueries } from '@quire/read-models/change-request-reviews/reviews.queries';
import { CommentQueries } from '@quire/read-models/comments/comments.queries';
import { ChangeRequestContributorQueries } from '@quire/read-models/change-request-contributors/contributors.queries';
import { IntegrationQueries } from '@quire/read-models/integrations/integrations.queries';
import { SiteQueries } from '@quire/read-models/sites/sites.queries';

/** Exposes one process's Runtime (connections, projector, executor) to Nest's container. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: Runtime, useValue: runtime },
        { provide: ContentStore, useValue: runtime.contentStore },
        { provide: JobQueues, useValue: runtime.jobs },
        { provide: ContentQueries, useValue: new ContentQueries(runtime.db) },
        { provide: GitImportQueries, useValue: new GitImportQueries(runtime.db) },
        { provide: GitExportQueries, useValue: new GitExportQueries(runtime.db) },
        { provide: RevisionHistoryQueries, useValue: new RevisionHistoryQueries(runtime.db) },
        { provide: QUIRE_CONFIG, useValue: runtime.config },
        { provide: LOGGER, useValue: runtime.logger },
        { provide: DB, useValue: runtime.db },
        { provide: EVENT_STORE, useValue: runtime.store },
        { provide: PROJECTOR, useValue: runtime.projector },
        { provide: REDIS, useValue: runtime.redis },
        { provide: CommandExecutor, useValue: runtime.executor },
        { provide: ReadCacheFollower, useValue: runtime.readCaches },
        { provide: IdentityQueries, useValue: new IdentityQueries(runtime.db) },
        { provide: SpaceQueries, useValue: new SpaceQueries(runtime.db) },
        { provide: CollectionQueries, useValue: new CollectionQueries(runtime.db) },
        { provide: AccessQueries, useValue: new AccessQueries(runtime.db) },
        { provide: ChangeRequestQueries, useValue: new ChangeRequestQueries(runtime.db) },
        { provide: ChangeRequestReviewQueries, useValue: new ChangeRequestReviewQueries(runtime.db) },
        { provide: CommentQueries, useValue: new CommentQueries(runtime.db) },
        { provide: OrganizationChangeRequestQueries, useValue: new OrganizationChangeRequestQueries(runtime.db) },
        { provide: ChangeRequestContributorQueries, useValue: new ChangeRequestContributorQueries(runtime.db) },
        { provide: IntegrationQueries, useValue: new IntegrationQueries(runtime.db) },
        { provide: SiteQueries, useValue: new SiteQueries(runtime.db) },
      ],
      exports: [Runtime, ContentStore, JobQueues, ContentQueries, GitImportQueries, GitExportQueries, RevisionHistoryQueries, QUIRE_CONFIG, LOGGER, DB, EVENT_STORE, PROJECTOR, REDIS, CommandExecutor, ReadCacheFollower, IdentityQueries, SpaceQueries, CollectionQueries, AccessQueries, ChangeRequestQueries, ChangeRequestReviewQueries, CommentQueries, ChangeRequestContributorQueries, OrganizationChangeRequestQueries, IntegrationQueries, SiteQueries],
    };
  }
}
