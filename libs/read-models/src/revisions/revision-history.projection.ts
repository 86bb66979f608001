import type { GitImportCompleted, RevisionCreated } from '@quire/domain';
import { Projection } from '@quire/projections/projection';

/**
 * The history of every space: each revision recorded in the space's stream (live revisions and
 * standalone imports; change requests' own revisions stay with them), in the order the events
 * were recorded, with what it came from: the change request it merged, the import that brought
 * it, the revision a restore brought back. Page trees stay in the content read model.
 */
export const revisionHistoryProjection: Projection = {
  name: 'revision-history',
  version: 1,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_revision_history'],
  handles: ['RevisionCreated', 'GitImportCompleted'],
  schema: (t) => `
    CREATE TABLE ${t('rm_revision_history')} (
      space_id text NOT NULL, id text NOT NULL,
      position_commit bigint NOT NULL, position_prepare bigint NOT NULL,
      kind text NOT NULL, parents jsonb NOT NULL, created_by text, created_at timestamptz NOT NULL,
      merged_from text, import_id text, standalone boolean NOT NULL DEFAULT false, restored_from jsonb,
      PRIMARY KEY (space_id, id));
    CREATE INDEX rm_revision_history_order ON ${t('rm_revision_history')} (space_id, position_commit DESC, position_prepare DESC);
  `,
  async apply(event, tx, t) {
    if (event.type === 'GitImportCompleted') {
      // Only the revision the import created: an import that changed nothing names the revision it found.
      const d = (event as unknown as GitImportCompleted).data;
      await tx.query(
        `UPDATE ${t('rm_revision_history')} SET import_id = $3, standalone = $4 WHERE space_id = $1 AND id = $2 AND kind = 'import' AND import_id IS NULL`,
        [d.spaceId, d.revision, d.importId, d.standalone],
      );
      return;
    }
    const d = (event as unknown as RevisionCreated).data;
    if (d.changeRequestId) return;
    await tx.query(
      `INSERT INTO ${t('rm_revision_history')} (space_id, id, position_commit, position_prepare, kind, parents, created_by, created_at, merged_from, restored_from)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (space_id, id) DO NOTHING`,
      [
        d.spaceId,
        d.revision,
        event.position.commit.toString(),
        event.position.prepare.toString(),
        d.kind,
        JSON.stringify(d.parents),
        d.createdBy ?? null,
        d.createdAt,
        d.mergedFrom ?? null,
        d.restoredFrom ? JSON.stringify(d.restoredFrom) : null,
      ],
    );
  },
};
