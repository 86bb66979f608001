import { Projection } from '@quire/projections/projection';
import { CollectionChanges, encodeLevel } from '@quire/domain';

/** One row per collection, with its nesting depth (1 for a top-level collection). */
export const collectionsProjection: Projection = {
  name: 'collections',
  version: 1,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_collections'],
  handles: ['CollectionCreated', 'CollectionUpdated'],
  schema: (t) => `
    CREATE TABLE ${t('rm_collections')} (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      parent text,
      depth int NOT NULL,
      title text NOT NULL,
      description text,
      default_level text NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL);
    CREATE INDEX rm_collections_org_created ON ${t('rm_collections')} (organization_id, created_at, id);
    CREATE INDEX rm_collections_parent ON ${t('rm_collections')} (parent) WHERE parent IS NOT NULL;
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    switch (event.type) {
      case 'CollectionCreated':
        await tx.query(
          `INSERT INTO ${t('rm_collections')} (id, organization_id, parent, depth, title, description, default_level, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, coalesce((SELECT depth + 1 FROM ${t('rm_collections')} WHERE id = $3), 1), $4, $5, $6, $7, $8, $8)
           ON CONFLICT (id) DO NOTHING`,
          [d.collectionId, d.organizationId, d.parent ?? null, d.title, d.description ?? null, encodeLevel(d.defaultLevel), d.createdBy, d.createdAt],
        );
        break;
      case 'CollectionUpdated': {
        const c = d.changes as CollectionChanges;
        await tx.query(
          `UPDATE ${t('rm_collections')} SET
             title = coalesce($3, title), description = CASE WHEN $4::boolean THEN $5 ELSE description END,
             default_level = coalesce($6, default_level), updated_at = $2
           WHERE id = $1`,
          [d.collectionId, d.at, c.title ?? null, c.description !== undefined, c.description ?? null, c.defaultLevel !== undefined ? encodeLevel(c.defaultLevel) : null],
        );
        break;
      }
    }
  },
};
