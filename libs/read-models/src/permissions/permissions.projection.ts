import { Projection, TableNamer } from '@quire/projections/projection';
import { encodeLevel } from '@quire/domain';
import { Queryable } from '@quire/platform/db/db';
import { ACCESS_FUNCTIONS } from './access.functions';

/**
 * What access checks need, and nothing else: every space and collection as a node with its
 * chain (itself, then its enclosing collections, nearest first), its own default level and the
 * resolved one (the first along the chain that does not inherit), plus explicit user grants.
 * Keeping the resolved level here turns every check into one indexed lookup; a collection's
 * level change rewrites the nodes under it (found through the GIN index on `chain`).
 */
export const permissionsProjection: Projection = {
  name: 'permissions',
  // 2: quire_space_access returns the organization's custom hostname.
  version: 2,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_access_nodes', 'rm_permission_grants'],
  handles: [
    'SpaceCreated',
    'SpaceUpdated',
    'CollectionCreated',
    'CollectionUpdated',
    'SpaceUserPermissionSet',
    'SpaceUserPermissionRemoved',
    'CollectionUserPermissionSet',
    'CollectionUserPermissionRemoved',
  ],
  schema: (t) => `
    CREATE TABLE ${t('rm_access_nodes')} (
      id text PRIMARY KEY,
      kind text NOT NULL,
      organization_id text NOT NULL,
      chain text[] NOT NULL,
      default_level text NOT NULL,
      resolved_level text NOT NULL);
    CREATE INDEX rm_access_nodes_chain ON ${t('rm_access_nodes')} USING gin (chain);
    CREATE TABLE ${t('rm_permission_grants')} (
      resource_id text NOT NULL,
      user_id text NOT NULL,
      role text NOT NULL,
      granted_at timestamptz NOT NULL,
      PRIMARY KEY (resource_id, user_id));
    CREATE INDEX rm_permission_grants_user ON ${t('rm_permission_grants')} (user_id);
    ${ACCESS_FUNCTIONS}
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    switch (event.type) {
      case 'SpaceCreated':
        await insertNode(tx, t, 'space', d.spaceId, d.organizationId, d.parent, encodeLevel(d.defaultLevel));
        break;
      case 'CollectionCreated':
        await insertNode(tx, t, 'collection', d.collectionId, d.organizationId, d.parent, encodeLevel(d.defaultLevel));
        break;
      case 'SpaceUpdated':
      case 'CollectionUpdated':
        if (d.changes?.defaultLevel !== undefined) await setLevel(tx, t, d.spaceId ?? d.collectionId, encodeLevel(d.changes.defaultLevel));
        break;
      case 'SpaceUserPermissionSet':
      case 'CollectionUserPermissionSet':
        await tx.query(
          `INSERT INTO ${t('rm_permission_grants')} (resource_id, user_id, role, granted_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (resource_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
          [d.spaceId ?? d.collectionId, d.userId, d.role, d.at],
        );
        break;
      case 'SpaceUserPermissionRemoved':
      case 'CollectionUserPermissionRemoved':
        await tx.query(`DELETE FROM ${t('rm_permission_grants')} WHERE resource_id = $1 AND user_id = $2`, [d.spaceId ?? d.collectionId, d.userId]);
        break;
    }
  },
};

/** The node's chain and resolved level come from its parent's row (read by key: a rebuild batches these inserts). */
async function insertNode(tx: Queryable, t: TableNamer, kind: string, id: string, organizationId: string, parent: string | undefined, level: string) {
  await tx.query(
    `INSERT INTO ${t('rm_access_nodes')} (id, kind, organization_id, chain, default_level, resolved_level)
     VALUES ($1, $2, $3, ARRAY[$1]::text[] || coalesce((SELECT chain FROM ${t('rm_access_nodes')} WHERE id = $4), '{}'::text[]), $5,
             CASE WHEN $5 <> 'inherit' THEN $5 ELSE coalesce((SELECT resolved_level FROM ${t('rm_access_nodes')} WHERE id = $4), 'inherit') END)
     ON CONFLICT (id) DO NOTHING`,
    [id, kind, organizationId, parent ?? null, level],
  );
}

/**
 * A recomputation of the nodes under `id` (`recompute`: a rebuild runs it with the batch's other
 * writes instead of ending the batch there). Resolved levels follow from the default levels along
 * each chain; a node inserted meanwhile took its parent's resolved level, perhaps not recomputed
 * yet, but has `id` in its chain as its parent does, so this recomputes it too.
 */
async function setLevel(tx: Queryable, t: TableNamer, id: string, level: string) {
  await tx.query(`UPDATE ${t('rm_access_nodes')} SET default_level = $2 WHERE id = $1`, [id, level]);
  await tx.query(
    `UPDATE ${t('rm_access_nodes')} n SET resolved_level = coalesce(
       (SELECT a.default_level FROM unnest(n.chain) WITH ORDINALITY AS x(id, ord) JOIN ${t('rm_access_nodes')} a ON a.id = x.id
         WHERE a.default_level <> 'inherit' ORDER BY x.ord LIMIT 1), 'inherit')
     WHERE n.chain @> ARRAY[$1]::text[]`,
    [id],
    { recompute: true },
  );
}
