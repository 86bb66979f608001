import { Projection } from '@quire/projections/projection';

/** Every git import run of every space: what was asked, how it went, what it produced. */
export const gitImportsProjection: Projection = {
  name: 'git-imports',
  version: 1,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_git_imports'],
  handles: ['GitImportRequested', 'GitImportStarted', 'GitImportCompleted', 'GitImportFailed', 'GitImportSkipped'],
  schema: (t) => `
    CREATE TABLE ${t('rm_git_imports')} (
      id text PRIMARY KEY, space_id text NOT NULL, status text NOT NULL,
      url text NOT NULL, ref text NOT NULL, standalone boolean NOT NULL, timestamp text,
      requested_by text NOT NULL, requested_at timestamptz NOT NULL, started_at timestamptz, finished_at timestamptz,
      revision text, commit jsonb, warnings jsonb NOT NULL DEFAULT '[]', error jsonb);
    CREATE INDEX rm_git_imports_space ON ${t('rm_git_imports')} (space_id, requested_at DESC, id DESC);
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    switch (event.type) {
      case 'GitImportRequested':
        await tx.query(
          `INSERT INTO ${t('rm_git_imports')} (id, space_id, status, url, ref, standalone, timestamp, requested_by, requested_at)
           VALUES ($1,$2,'queued',$3,$4,$5,$6,$7,$8) ON CONFLICT (id) DO NOTHING`,
          [d.request.importId, d.spaceId, d.request.url, d.request.ref, !!d.request.standalone, d.request.timestamp ?? null, d.requestedBy, d.at],
        );
        break;
      case 'GitImportStarted':
        await tx.query(`UPDATE ${t('rm_git_imports')} SET status = 'running', started_at = $2 WHERE id = $1`, [d.importId, d.at]);
        break;
      case 'GitImportCompleted':
        await tx.query(
          `UPDATE ${t('rm_git_imports')} SET status = 'completed', finished_at = $2, revision = $3, commit = $4, warnings = $5 WHERE id = $1`,
          [d.importId, d.at, d.revision, JSON.stringify(d.commit), JSON.stringify(d.warnings)],
        );
        break;
      case 'GitImportFailed':
        await tx.query(`UPDATE ${t('rm_git_imports')} SET status = 'failed', finished_at = $2, error = $3 WHERE id = $1`, [
          d.importId,
          d.at,
          JSON.stringify({ code: d.code, message: d.message }),
        ]);
        break;
      case 'GitImportSkipped':
        await tx.query(`UPDATE ${t('rm_git_imports')} SET status = 'skipped', finished_at = $2, error = $3 WHERE id = $1`, [
          d.importId,
          d.at,
          JSON.stringify({ code: 'skipped', message: d.reason }),
        ]);
        break;
    }
  },
};
