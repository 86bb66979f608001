import { Projection } from '@quire/projections/projection';

/** Every git export run of every space: what was asked, how it went, what it pushed. */
export const gitExportsProjection: Projection = {
  name: 'git-exports',
  version: 1,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_git_exports'],
  handles: ['GitExportRequested', 'GitExportStarted', 'GitExportCompleted', 'GitExportFailed', 'GitExportSkipped'],
  schema: (t) => `
    CREATE TABLE ${t('rm_git_exports')} (
      id text PRIMARY KEY, space_id text NOT NULL, status text NOT NULL,
      url text NOT NULL, ref text NOT NULL, commit_message text NOT NULL, project_directory text,
      standalone boolean NOT NULL, force boolean NOT NULL, timestamp text,
      requested_by text NOT NULL, requested_at timestamptz NOT NULL, started_at timestamptz, finished_at timestamptz,
      revision text, commit jsonb, pushed boolean, error jsonb);
    CREATE INDEX rm_git_exports_space ON ${t('rm_git_exports')} (space_id, requested_at DESC, id DESC);
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    switch (event.type) {
      case 'GitExportRequested': {
        const r = d.request;
        await tx.query(
          `INSERT INTO ${t('rm_git_exports')} (id, space_id, status, url, ref, commit_message, project_directory, standalone, force, timestamp, requested_by, requested_at)
           VALUES ($1,$2,'queued',$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT (id) DO NOTHING`,
          [r.exportId, d.spaceId, r.url, r.ref, r.commitMessage, r.repoProjectDirectory ?? null, !!r.standalone, !!r.force, r.timestamp ?? null, d.requestedBy, d.at],
        );
        break;
      }
      case 'GitExportStarted':
        await tx.query(`UPDATE ${t('rm_git_exports')} SET status = 'running', started_at = $2 WHERE id = $1`, [d.exportId, d.at]);
        break;
      case 'GitExportCompleted':
        await tx.query(`UPDATE ${t('rm_git_exports')} SET status = 'completed', finished_at = $2, revision = $3, commit = $4, pushed = $5 WHERE id = $1`, [
          d.exportId,
          d.at,
          d.revision,
          JSON.stringify(d.commit),
          d.pushed,
        ]);
        break;
      case 'GitExportFailed':
        await tx.query(`UPDATE ${t('rm_git_exports')} SET status = 'failed', finished_at = $2, error = $3 WHERE id = $1`, [
          d.exportId,
          d.at,
          JSON.stringify({ code: d.code, message: d.message }),
        ]);
        break;
      case 'GitExportSkipped':
        await tx.query(`UPDATE ${t('rm_git_exports')} SET status = 'skipped', finished_at = $2, error = $3 WHERE id = $1`, [
          d.exportId,
          d.at,
          JSON.stringify({ code: 'skipped', message: d.reason }),
        ]);
        break;
    }
  },
};
