import { QuireConfig } from '@quire/platform/config/config';
import { collectionPermissions, decodeLevel, Role } from '@quire/domain';
import { CollectionRow } from '@quire/read-models/collections/collections.queries';

/** GitBook's Collection, with `permissions` for the caller's `role`. */
export function presentCollection(config: QuireConfig, row: CollectionRow, role: Role | null) {
  return {
    object: 'collection' as const,
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    organization: row.organization_id,
    ...(row.parent ? { parent: row.parent } : {}),
    defaultLevel: decodeLevel(row.default_level),
    urls: { location: `${config.publicUrl}/v1/collections/${row.id}`, app: `${config.appUrl}/c/${row.id}` },
    permissions: collectionPermissions(role),
  };
}
