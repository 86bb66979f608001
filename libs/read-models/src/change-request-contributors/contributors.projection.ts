import { Projection } from '@quire/projections/projection';

/**
 * Who contributed to each change request, as GitBook's ChangeRequestUserContributor counts it:
 * one row per user and kind of contribution, `edit` for each content revision they made in it,
 * `comment` for each comment or reply they posted in it. Deleting a comment does not undo the
 * contribution.
 */
export const changeRequestContributorsProjection: Projection = {
  name: 'change-request-contributors',
  version: 1,
  writeResultsUnused: true,
  tables: ['rm_change_request_contributors'],
  handles: ['RevisionCreated', 'CommentPosted', 'CommentReplyPosted'],
  schema: (t) => `
    CREATE TABLE ${t('rm_change_request_contributors')} (
      change_request_id text NOT NULL,
      user_id text NOT NULL,
      action_type text NOT NULL,
      count int NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (change_request_id, user_id, action_type));
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    if (!d.changeRequestId) return;
    let contribution: { user: string; action: 'edit' | 'comment'; at: string } | undefined;
    if (event.type === 'RevisionCreated') {
      if (d.kind === 'edits' && d.createdBy) contribution = { user: d.createdBy, action: 'edit', at: d.createdAt };
    } else {
      contribution = { user: d.postedBy, action: 'comment', at: d.at };
    }
    if (!contribution) return;
    await tx.query(
      `INSERT INTO ${t('rm_change_request_contributors')} AS c (change_request_id, user_id, action_type, count, updated_at) VALUES ($1, $2, $3, 1, $4)
       ON CONFLICT (change_request_id, user_id, action_type) DO UPDATE SET count = c.count + 1, updated_at = greatest(c.updated_at, excluded.updated_at)`,
      [d.changeRequestId, contribution.user, contribution.action, contribution.at],
    );
  },
};
