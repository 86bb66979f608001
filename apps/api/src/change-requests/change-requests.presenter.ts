import { RevisionFileNode } from '@quire/domain';
import { QuireConfig } from '@quire/platform/config/config';
import type { ContentChangeOutcome } from '@quire/content/edit';
import { ChangeRequestRow } from '@quire/read-models/change-requests/change-requests.queries';
import type { UserRow } from '@quire/read-models/identity/identity.queries';
import type { ContributorRow } from '@quire/read-models/change-request-contributors/contributors.queries';
import { presentFile } from '../content/content.presenter';
import { presentUser } from '../identity/identity.presenter';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A user another record points at; one whose row is gone still shows with their id. */
export function presentUserRef(config: QuireConfig, row: UserRow | null, id: string) {
  return row
    ? presentUser(config, row, { private: false })
    : { object: 'user' as const, id, displayName: id, urls: { location: `${config.publicUrl}/v1/users/${id}` } };
}

export function changeRequestLocation(config: QuireConfig, spaceId: string, changeRequestId: string): string {
  return `${config.publicUrl}/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
}

/** GitBook's ChangeRequest. */
export function presentChangeRequest(config: QuireConfig, row: ChangeRequestRow) {
  const user = (u: ChangeRequestRow['creator'], id: string) =>
    u ? presentUser(config, u, { private: false }) : { object: 'user' as const, id, displayName: id, urls: { location: `${config.publicUrl}/v1/users/${id}` } };
  return {
    object: 'change-request' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    ...(row.description ? { description: row.description } : {}),
    createdBy: user(row.creator, row.created_by),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...(row.merged_by ? { mergedBy: user(row.merger, row.merged_by) } : {}),
    ...(row.merged_at ? { mergedAt: iso(row.merged_at) } : {}),
    space: row.space_id,
    revision: row.revision,
    revisionInitial: row.revision_initial,
    ...(row.revision_merged_ancestor ? { revisionMergedAncestor: row.revision_merged_ancestor } : {}),
    ...(row.revision_merged ? { revisionMerged: row.revision_merged } : {}),
    comments: row.comments,
    outdated: row.outdated,
    urls: {
      app: `${config.appUrl}/s/${row.space_id}/~/changes/${row.number}`,
      location: changeRequestLocation(config, row.space_id, row.id),
    },
  };
}

/** GitBook's ChangeRequestUserContributor. */
export function presentContributor(config: QuireConfig, row: ContributorRow) {
  return { updatedAt: iso(row.updated_at), count: row.count, user: presentUserRef(config, row.user, row.user_id), actionType: row.action_type };
}

/** GitBook's ChangeRequestContentUpdate (`compat=false`). */
export function presentContentUpdate(
  config: QuireConfig,
  row: ChangeRequestRow,
  outcomes: ContentChangeOutcome[],
  insertedFiles: RevisionFileNode[],
) {
  const pageRef = (id: string) => ({
    object: 'page' as const,
    id,
    urls: { location: `${changeRequestLocation(config, row.space_id, row.id)}/content/page/${id}` },
  });
  const changes = outcomes.map((o) =>
    o.object === 'deleted_page'
      ? { object: o.object, page: o.pageId }
      : { object: o.object, ...(o.object === 'created_page' && o.ref !== undefined ? { ref: o.ref } : {}), page: pageRef(o.pageId) },
  );
  const files = insertedFiles.map((f) => presentFile({ config, spaceId: row.space_id, metadata: true }, f));
  return { changeRequest: presentChangeRequest(config, row), changes, ...(files.length ? { insertedFiles: files } : {}) };
}
