import { Projection } from '@quire/projections/projection';

/**
 * Reviews and requested reviewers of change requests. Whether a review is outdated depends on
 * the change request's head, so it is worked out when read (against rm_change_requests):
 * stored here is only `superseded`, set when the same reviewer reviewed again or was asked again.
 */
export const changeRequestReviewsProjection: Projection = {
  name: 'change-request-reviews',
  version: 1,
  writeResultsUnused: true,
  tables: ['rm_change_request_reviews', 'rm_change_request_reviewers'],
  handles: ['ChangeRequestReviewersRequested', 'ChangeRequestReviewerUnrequested', 'ChangeRequestReviewSubmitted'],
  schema: (t) => `
    CREATE TABLE ${t('rm_change_request_reviews')} (
      id text PRIMARY KEY,
      change_request_id text NOT NULL,
      space_id text NOT NULL,
      reviewer text NOT NULL,
      status text NOT NULL,
      revision text NOT NULL,
      requested_by text,
      comment_id text,
      superseded boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL);
    CREATE INDEX rm_change_request_reviews_list ON ${t('rm_change_request_reviews')} (change_request_id, created_at DESC, id DESC);
    CREATE TABLE ${t('rm_change_request_reviewers')} (
      change_request_id text NOT NULL,
      user_id text NOT NULL,
      space_id text NOT NULL,
      requested_by text NOT NULL,
      revision text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (change_request_id, user_id));
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    const reviews = t('rm_change_request_reviews');
    const reviewers = t('rm_change_request_reviewers');
    switch (event.type) {
      case 'ChangeRequestReviewersRequested':
        await tx.query(`UPDATE ${reviews} SET superseded = true WHERE change_request_id = $1 AND reviewer = ANY($2::text[])`, [d.changeRequestId, d.users]);
        await tx.query(
          `INSERT INTO ${reviewers} (change_request_id, user_id, space_id, requested_by, revision, created_at)
           SELECT $1, u, $2, $3, $4, $5 FROM unnest($6::text[]) AS u
           ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = excluded.requested_by, revision = excluded.revision, created_at = excluded.created_at`,
          [d.changeRequestId, d.spaceId, d.requestedBy, d.revision, d.at, d.users],
        );
        break;
      case 'ChangeRequestReviewerUnrequested':
        await tx.query(`DELETE FROM ${reviewers} WHERE change_request_id = $1 AND user_id = $2`, [d.changeRequestId, d.userId]);
        break;
      case 'ChangeRequestReviewSubmitted':
        await tx.query(`UPDATE ${reviews} SET superseded = true WHERE change_request_id = $1 AND reviewer = $2 AND id <> $3`, [d.changeRequestId, d.reviewer, d.reviewId]);
        await tx.query(
          `INSERT INTO ${reviews} (id, change_request_id, space_id, reviewer, status, revision, requested_by, comment_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [d.reviewId, d.changeRequestId, d.spaceId, d.reviewer, d.status, d.revision, d.requestedBy ?? null, d.commentId ?? null, d.at],
        );
        break;
    }
  },
};
