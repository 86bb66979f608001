import { Projection } from '@quire/projections/projection';

/**
 * Comments and their replies, on spaces and on change requests. Deleted ones keep their row
 * (`deleted_at`) so that a reply to a deleted comment is told so rather than "not found"; reads
 * skip them. Reply counts and repliers are worked out when read. The `comments` counters of
 * spaces and change requests live on their own rows (the spaces and change-requests projections).
 */
export const commentsProjection: Projection = {
  name: 'comments',
  version: 1,
  writeResultsUnused: true,
  tables: ['rm_comments', 'rm_comment_replies'],
  handles: ['CommentPosted', 'CommentEdited', 'CommentResolved', 'CommentReopened', 'CommentDeleted', 'CommentReplyPosted', 'CommentReplyEdited', 'CommentReplyDeleted'],
  schema: (t) => `
    CREATE TABLE ${t('rm_comments')} (
      id text PRIMARY KEY,
      space_id text NOT NULL,
      change_request_id text,
      review_id text,
      revision text NOT NULL,
      page_id text,
      node_id text,
      body jsonb NOT NULL,
      posted_by text NOT NULL,
      posted_at timestamptz NOT NULL,
      edited_at timestamptz,
      status text NOT NULL DEFAULT 'open',
      resolved_by text,
      resolved_at timestamptz,
      deleted_at timestamptz);
    CREATE INDEX rm_comments_list ON ${t('rm_comments')} (space_id, change_request_id, posted_at, id);
    CREATE TABLE ${t('rm_comment_replies')} (
      id text PRIMARY KEY,
      comment_id text NOT NULL,
      space_id text NOT NULL,
      change_request_id text,
      body jsonb NOT NULL,
      posted_by text NOT NULL,
      posted_at timestamptz NOT NULL,
      edited_at timestamptz,
      deleted_at timestamptz);
    CREATE INDEX rm_comment_replies_list ON ${t('rm_comment_replies')} (comment_id, posted_at, id);
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    const comments = t('rm_comments');
    const replies = t('rm_comment_replies');
    switch (event.type) {
      case 'CommentPosted':
        await tx.query(
          `INSERT INTO ${comments} (id, space_id, change_request_id, review_id, revision, page_id, node_id, body, posted_by, posted_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
          [d.commentId, d.spaceId, d.changeRequestId ?? null, d.reviewId ?? null, d.revision, d.pageId ?? null, d.nodeId ?? null, JSON.stringify(d.body), d.postedBy, d.at],
        );
        break;
      case 'CommentEdited':
        await tx.query(`UPDATE ${comments} SET body = $2, edited_at = $3 WHERE id = $1`, [d.commentId, JSON.stringify(d.body), d.at]);
        break;
      case 'CommentResolved':
        await tx.query(`UPDATE ${comments} SET status = 'resolved', resolved_by = $2, resolved_at = $3 WHERE id = $1`, [d.commentId, d.by, d.at]);
        break;
      case 'CommentReopened':
        await tx.query(`UPDATE ${comments} SET status = 'open', resolved_by = NULL, resolved_at = NULL WHERE id = $1`, [d.commentId]);
        break;
      case 'CommentDeleted':
        await tx.query(`UPDATE ${comments} SET deleted_at = $2 WHERE id = $1`, [d.commentId, d.at]);
        break;
      case 'CommentReplyPosted':
        await tx.query(
          `INSERT INTO ${replies} (id, comment_id, space_id, change_request_id, body, posted_by, posted_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
          [d.replyId, d.commentId, d.spaceId, d.changeRequestId ?? null, JSON.stringify(d.body), d.postedBy, d.at],
        );
        break;
      case 'CommentReplyEdited':
        await tx.query(`UPDATE ${replies} SET body = $2, edited_at = $3 WHERE id = $1`, [d.replyId, JSON.stringify(d.body), d.at]);
        break;
      case 'CommentReplyDeleted':
        await tx.query(`UPDATE ${replies} SET deleted_at = $2 WHERE id = $1`, [d.replyId, d.at]);
        break;
    }
  },
};
