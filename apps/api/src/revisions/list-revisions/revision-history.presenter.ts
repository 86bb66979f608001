import { QuireConfig } from '@quire/platform/config/config';
import { RevisionHistoryRow } from '@quire/read-models/revisions/revision-history.queries';
import { presentUser } from '../../identity/identity.presenter';

/**
 * One revision of a space's history (a Quire extension, not in GitBook's API): how it came to
 * be (`type` as GitBook's Revision has it, `kind` Quire's finer one: initial, edits, merge,
 * update, import, rollback), who made it and when, its parents, and what it came from.
 */
export function presentHistoryEntry(config: QuireConfig, spaceId: string, row: RevisionHistoryRow) {
  const type = row.kind === 'merge' && row.merged_from ? 'merge' : row.kind === 'update' || row.kind === 'rollback' ? row.kind : 'edits';
  const out: Record<string, unknown> = {
    object: 'revision-history-entry',
    id: row.id,
    type,
    kind: row.kind,
    parents: row.parents,
    createdAt: new Date(row.created_at).toISOString(),
    urls: {
      location: `${config.publicUrl}/v1/spaces/${spaceId}/revisions/${row.id}`,
      app: `${config.appUrl}/s/${spaceId}/~/revisions/${row.id}`,
    },
  };
  if (row.author) out.author = presentUser(config, row.author, { private: false });
  else if (row.created_by) out.author = { object: 'user', id: row.created_by, displayName: row.created_by, urls: { location: `${config.publicUrl}/v1/users/${row.created_by}` } };
  if (row.merged_from) {
    out.changeRequest = {
      id: row.merged_from,
      ...(row.change_request ? { number: row.change_request.number, subject: row.change_request.subject } : {}),
      urls: { location: `${config.publicUrl}/v1/spaces/${spaceId}/change-requests/${row.merged_from}` },
    };
  }
  if (row.import_id) out.import = { id: row.import_id, standalone: row.standalone, ...(row.git_import ?? {}) };
  if (row.restored_from) out.restoredFrom = row.restored_from;
  return out;
}
