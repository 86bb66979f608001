import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { InfrastructureModule } from '@quire/infrastructure/infrastructure.module';
import { Runtime } from '@quire/infrastructure/runtime';
import { AuthGuard } from './http/auth';
import { ImportGitRepositoryController } from './git-import/import-git-repository/import-git-repository.controller';
import { ImportGitRepositoryHandler } from './git-import/import-git-repository/import-git-repository.handler';
import { ListGitImportsController } from './git-import/list-git-imports/list-git-imports.controller';
import { ExportGitRepositoryController } from './git-export/export-git-repository/export-git-repository.controller';
import { ExportGitRepositoryHandler } from './git-export/export-git-repository/export-git-repository.handler';
import { ListGitExportsController } from './git-export/list-git-exports/list-git-exports.controller';
import { SpaceContentController } from './content/space-content.controller';
import { ContentReader } from './content/content-reader';
import { RevisionCache } from './content/revision-cache';
import { RevisionContentController } from './revisions/revision-content.controller';
import { RevisionChangesController } from './revisions/revision-changes/revision-changes.controller';
import { RevisionChanges } from './revisions/revision-changes/revision-changes';
import { ListRevisionsController } from './revisions/list-revisions/list-revisions.controller';
import { RestoreRevisionController } from './revisions/restore-revision/restore-revision.controller';
import { RestoreRevisionHandler } from './revisions/restore-revision/restore-revision.handler';
import { PageDiffController } from './revisions/page-diff/page-diff.controller';
import { PageDiffs } from './revisions/page-diff/page-diff';
import { GitBookErrorFilter } from './http/error.filter';
import { HealthController } from './health/health.controller';
import { UsersController } from './identity/users.controller';
import { CreateUserHandler } from './identity/create-user/create-user.handler';
import { CreateAccessTokenHandler } from './identity/create-access-token/create-access-token.handler';
import { OrganizationsController } from './organizations/organizations.controller';
import { CreateOrganizationHandler } from './organizations/create-organization/create-organization.handler';
import { SetMemberRoleHandler } from './organizations/set-member-role/set-member-role.handler';
import { SetOrganizationMergeRulesHandler } from './organizations/set-merge-rules/set-merge-rules.handler';
import { AccessService } from './permissions/access.service';
import { SpacesController } from './spaces/spaces.controller';
import { CreateSpaceHandler } from './spaces/create-space/create-space.handler';
import { UpdateSpaceHandler } from './spaces/update-space/update-space.handler';
import { DuplicateSpaceHandler } from './spaces/duplicate-space/duplicate-space.handler';
import { DeleteSpaceHandler } from './spaces/delete-space/delete-space.handler';
import { RestoreSpaceHandler } from './spaces/restore-space/restore-space.handler';
import { CollectionsController } from './collections/collections.controller';
import { CreateCollectionHandler } from './collections/create-collection/create-collection.handler';
import { UpdateCollectionHandler } from './collections/update-collection/update-collection.handler';
import { PermissionsController } from './permissions/permissions.controller';
import { SetSpacePermissionsHandler } from './permissions/set-space-permissions/set-space-permissions.handler';
import { SetCollectionPermissionsHandler } from './permissions/set-collection-permissions/set-collection-permissions.handler';
import { ChangeRequestsController } from './change-requests/change-requests.controller';
import { MergeChangeRequestController } from './change-requests/merge-change-request/merge-change-request.controller';
import { UpdateChangeRequestController } from './change-requests/update-change-request/update-change-request.controller';
import { ChangeRequestContentController } from './change-requests/change-request-content.controller';
import { ChangeRequestAccess } from './change-requests/change-request-access.service';
import { ChangeRequestJobs } from './change-requests/change-request-jobs';
import { CreateChangeRequestHandler } from './change-requests/create-change-request/create-change-request.handler';
import { EditChangeRequestHandler } from './change-requests/edit-change-request/edit-change-request.handler';
import { UpdateChangeRequestContentHandler } from './change-requests/update-change-request-content/update-change-request-content.handler';
import { MergeChangeRequestHandler } from './change-requests/merge-change-request/merge-change-request.handler';
import { UpdateChangeRequestHandler } from './change-requests/update-change-request/update-change-request.handler';
import { ChangeRequestReviewsController } from './change-requests/change-request-reviews.controller';
import { RequestReviewersHandler } from './change-requests/request-reviewers/request-reviewers.handler';
import { RemoveRequestedReviewerHandler } from './change-requests/remove-requested-reviewer/remove-requested-reviewer.handler';
import { SubmitReviewHandler } from './change-requests/submit-review/submit-review.handler';
import { CommentsController } from './comments/comments.controller';
import { OrganizationChangeRequestsController } from './change-requests/organization-change-requests.controller';
import { PostCommentHandler } from './comments/post-comment/post-comment.handler';
import { ChangeCommentHandler } from './comments/change-comment/change-comment.handler';
import { IntegrationsController } from './integrations/integrations.controller';
import { PublishIntegrationHandler } from './integrations/publish-integration/publish-integration.handler';
import { UnpublishIntegrationHandler } from './integrations/unpublish-integration/unpublish-integration.handler';
import { UrlsController } from './urls/urls.controller';
import { OperatorsModule } from './operators/operators.module';
import { SearchController } from './search/search.controller';
import { searchProviders } from './search/search.providers';
import { AskController } from './ask/ask.controller';
import { siteController } from './site/site.controller';
import { PublishedSites } from './site/published-sites';
import { SitePages } from './site/site-pages';
import { CustomHostSites } from './site/custom-host-sites';
import { CustomHostnamesController } from './custom-hostnames/custom-hostnames.controller';
import { CustomHostnameReservations } from './custom-hostnames/custom-hostname-reservations';
import { SetCustomHostnameHandler } from './custom-hostnames/set-custom-hostname/set-custom-hostname.handler';
import { RemoveCustomHostnameHandler } from './custom-hostnames/remove-custom-hostname/remove-custom-hostname.handler';
import { sitesControllers, sitesProviders } from './sites/sites.providers';
import { GitRunStarter } from './git-runs/git-run-starter';

const commandHandlers = [ImportGitRepositoryHandler, ExportGitRepositoryHandler, CreateUserHandler, CreateAccessTokenHandler, CreateOrganizationHandler, SetMemberRoleHandler, SetOrganizationMergeRulesHandler,
  CreateSpaceHandler, UpdateSpaceHandler, DuplicateSpaceHandler, DeleteSpaceHandler, RestoreSpaceHandler,
  CreateCollectionHandler, UpdateCollectionHandler, SetSpacePermissionsHandler, SetCollectionPermissionsHandler,
  CreateChangeRequestHandler, EditChangeRequestHandler, UpdateChangeRequestContentHandler, MergeChangeRequestHandler, UpdateChangeRequestHandler,
  RequestReviewersHandler, RemoveRequestedReviewerHandler, SubmitReviewHandler, PostCommentHandler, ChangeCommentHandler,
  PublishIntegrationHandler, UnpublishIntegrationHandler, SetCustomHostnameHandler, RemoveCustomHostnameHandler,
  RestoreRevisionHandler];

/** The HTTP API on /v1. `extra` lets the all-in-one process mount the worker beside it. */
@Module({})
export class ApiModule {
  static forRuntime(runtime: Runtime, extra: Array<Type | DynamicModule> = []): DynamicModule {
    return {
      module: ApiModule,
      imports: [InfrastructureModule.forRuntime(runtime), CqrsModule.forRoot(), OperatorsModule.forRuntime(runtime), ...extra],
      controllers: [HealthController, UsersController, OrganizationsController, SpacesController, CollectionsController, PermissionsController, SpaceContentController, RevisionContentController, RevisionChangesController, ListRevisionsController, RestoreRevisionController, PageDiffController, ImportGitRepositoryController, ListGitImportsController, ExportGitRepositoryController, ListGitExportsController, ChangeRequestsController, MergeChangeRequestController, UpdateChangeRequestController, ChangeRequestContentController, ChangeRequestReviewsController, CommentsController, OrganizationChangeRequestsController, IntegrationsController, UrlsController, SearchController, AskController, CustomHostnamesController, siteController(runtime.config), ...sitesControllers],
      providers: [
        ContentReader,
        RevisionCache,
        RevisionChanges,
        PageDiffs,
        ...commandHandlers,
        GitRunStarter,
        AccessService,
        ChangeRequestAccess,
        ChangeRequestJobs,
        ...searchProviders,
        PublishedSites,
        SitePages,
        CustomHostSites,
        CustomHostnameReservations,
        ...sitesProviders,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: GitBookErrorFilter },
      ],
    };
  }
}
