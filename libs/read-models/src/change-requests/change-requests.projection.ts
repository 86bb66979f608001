import { Projection } from '@quire/projections/projection';
import { OPEN_COMMENT_EVENTS, openCommentsDelta } from '../comments/open-comments';

/**
 * One row per change request with everything GitBook's ChangeRequest shows except `outdated`,
 * which compares the space's live revision (rm_spaces) with the row's base when read. Its head
 * follows the RevisionCreated events of its own stream; contributors are the users who made
 * content revisions in it. The space's counters live on rm_spaces (the spaces projection).
 */
export const changeRequestsProjection: Projection = {
  name: 'change-requests',
  // 4: quire_change_request_page reads markdown only (documents are parsed on read).
  // 5: requested_reviewers follows the review requests; `comments` counts open comments.
  version: 5,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_change_requests'],
  handles: ['ChangeRequestCreated', 'ChangeRequestDetailsChanged', 'ChangeRequestStatusChanged', 'RevisionCreated', 'ChangeRequestMerged', 'ChangeRequestUpdated',
    'ChangeRequestReviewersRequested', 'ChangeRequestReviewerUnrequested', ...OPEN_COMMENT_EVENTS],
  schema: (t) => `
    CREATE TABLE ${t('rm_change_requests')} (
      id text PRIMARY KEY,
      space_id text NOT NULL,
      number int NOT NULL,
      status text NOT NULL,
      subject text NOT NULL,
      description jsonb,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      merged_by text,
      merged_at timestamptz,
      revision text NOT NULL,
      revision_initial text NOT NULL,
      revision_merged_ancestor text,
      revision_merged text,
      contributors text[] NOT NULL DEFAULT '{}',
      requested_reviewers text[] NOT NULL DEFAULT '{}',
      comments int NOT NULL DEFAULT 0,
      UNIQUE (space_id, number));
    CREATE INDEX rm_change_requests_updated ON ${t('rm_change_requests')} (space_id, updated_at DESC, id DESC);
    CREATE INDEX rm_change_requests_created ON ${t('rm_change_requests')} (space_id, created_at DESC, id DESC);
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    const table = t('rm_change_requests');
    switch (event.type) {
      case 'ChangeRequestCreated':
        // Contributors named (empty) rather than left to the default: a rebuild folds the row's
        // later updates into this INSERT, which needs the array they add to.
        await tx.query(
          `INSERT INTO ${table} (id, space_id, number, status, subject, created_by, created_at, updated_at, revision, revision_initial, contributors)
           VALUES ($1, $2, $3, 'draft', $4, $5, $6, $6, $7, $7, $8) ON CONFLICT (id) DO NOTHING`,
          [d.changeRequestId, d.spaceId, d.number, d.subject, d.createdBy, d.createdAt, d.revisionInitial, []],
        );
        break;
      // Only what the event changes is assigned, each a plain value: a rebuild folds the row's
      // successive updates into one (libs/projections/src/update-folding.ts).
      case 'ChangeRequestDetailsChanged': {
        const sets = ['updated_at = $2'];
        const params: unknown[] = [d.changeRequestId, d.at];
        if (d.subject != null) sets.push(`subject = $${params.push(d.subject)}`);
        if (d.description !== undefined) sets.push(`description = $${params.push(d.description == null ? null : JSON.stringify(d.description))}`);
        await tx.query(`UPDATE ${table} SET ${sets.join(', ')} WHERE id = $1`, params);
        break;
      }
      case 'ChangeRequestStatusChanged':
        await tx.query(`UPDATE ${table} SET status = $2, updated_at = $3 WHERE id = $1`, [d.changeRequestId, d.to, d.at]);
        break;
      case 'RevisionCreated': {
        if (!d.changeRequestId) return;
        const contributor: string | null = d.kind === 'edits' ? (d.createdBy ?? null) : null;
        // A shape update-folding composes: the contributor added when missing.
        const contributors = contributor === null ? '' : `, contributors = CASE WHEN $4 = ANY(contributors) THEN contributors ELSE contributors || $4::text END`;
        await tx.query(
          `UPDATE ${table} SET revision = $2, updated_at = greatest(updated_at, $3)${contributors} WHERE id = $1`,
          contributor === null ? [d.changeRequestId, d.revision, d.createdAt] : [d.changeRequestId, d.revision, d.createdAt, contributor],
        );
        break;
      }
      case 'ChangeRequestUpdated':
        await tx.query(`UPDATE ${table} SET revision = $2, revision_merged_ancestor = $3, updated_at = greatest(updated_at, $4) WHERE id = $1`, [
          d.changeRequestId,
          d.revision,
          d.revisionMergedAncestor,
          d.at,
        ]);
        break;
      case 'ChangeRequestReviewersRequested':
        await tx.query(
          `UPDATE ${table} SET requested_reviewers = requested_reviewers || ARRAY(SELECT u FROM unnest($2::text[]) AS u WHERE u <> ALL(requested_reviewers)) WHERE id = $1`,
          [d.changeRequestId, d.users],
        );
        break;
      case 'ChangeRequestReviewerUnrequested':
        await tx.query(`UPDATE ${table} SET requested_reviewers = array_remove(requested_reviewers, $2) WHERE id = $1`, [d.changeRequestId, d.userId]);
        break;
      case 'CommentPosted':
      case 'CommentResolved':
      case 'CommentReopened':
      case 'CommentDeleted': {
        const moved = openCommentsDelta(event);
        if (moved?.changeRequestId) await tx.query(`UPDATE ${table} SET comments = comments + $2 WHERE id = $1`, [moved.changeRequestId, moved.delta]);
        break;
      }
      case 'ChangeRequestMerged':
        await tx.query(`UPDATE ${table} SET status = 'merged', merged_by = $2, merged_at = $3, revision_merged = $4, updated_at = $3 WHERE id = $1`, [
          d.changeRequestId,
          d.mergedBy,
          d.mergedAt,
          d.revisionMerged,
        ]);
        break;
    }
  },
};
