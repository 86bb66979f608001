import { Projection } from '@quire/projections/projection';
import { identityProjection } from '@quire/read-models/identity/identity.projection';
import { spacesProjection } from '@quire/read-models/spaces/spaces.projection';
import { collectionsProjection } from '@quire/read-models/collections/collections.projection';
import { permissionsProjection } from '@quire/read-models/permissions/permissions.projection';

import { ContentStore } from '@quire/content/store';
import { contentProjection } from '@quire/read-models/content/content.projection';
import { gitImportsProjection } from '@quire/read-models/git-imports/git-imports.projection';
import { gitExportsProjection } from '@quire/read-models/git-exports/git-exports.projection';
import { revisionHistoryProjection } from '@quire/read-models/revisions/revision-history.projection';
import { changeRequestsProjection } from '@quire/read-models/change-requests/change-requests.projection';
import { changeRequestReviewsProjection } from '@quire/read-models/change-request-reviews/reviews.projection';
import { commentsProjection } from '@quire/read-models/comments/comments.projection';
import { changeRequestContributorsProjection } from '@quire/read-models/change-request-contributors/contributors.projection';
import { integrationsProjection } from '@quire/read-models/integrations/integrations.projection';
import { searchProjection } from '@quire/search/search.projection';
import { sitesProjection } from '@quire/read-models/sites/sites.projection';

export interface ProjectionDeps {
  /** Page bytes, for read models that need page text (content, search). */
  contentStore: ContentStore;
}

/** Every read model of the product; the projector runs them, `replay` rebuilds them. */
export function allProjections(deps: ProjectionDeps): Projection[] {
  return [identityProjection, spacesProjection, collectionsProjection, permissionsProjection, contentProjection(deps.contentStore), gitImportsProjection, gitExportsProjection, changeRequestsProjection, changeRequestReviewsProjection, commentsProjection, changeRequestContributorsProjection, integrationsProjection, searchProjection(deps.contentStore), revisionHistoryProjection, sitesProjection];
}
