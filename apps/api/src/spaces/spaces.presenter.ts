import { QuireConfig } from '@quire/platform/config/config';
import { decodeLevel, Role, spacePermissions } from '@quire/domain';
import { SpaceRow } from '@quire/read-models/spaces/spaces.queries';
import { SHARE_PARAM, shareKey } from './share-links';

/**
 * What UpdateSpace set, as set: `public` and `unlisted` spaces are published as a docs site to
 * anyone (apps/api/src/site), `in-collection` ones under their collection, `private` ones not at
 * all, `share-link` ones to whoever has the link with its key (share-links.ts). A space whose
 * visibility was never set shows `in-collection` when it is in a collection and inherits its
 * access, `private` otherwise. `urls.published` shows for every visibility but `private` (for a
 * share-link space, with its key: the link to hand out), `urls.public` for public spaces.
 */
export function spaceVisibility(row: Pick<SpaceRow, 'parent' | 'default_level' | 'visibility'>): 'public' | 'unlisted' | 'share-link' | 'in-collection' | 'private' {
  if (row.visibility === 'public' || row.visibility === 'unlisted' || row.visibility === 'share-link' || row.visibility === 'private') return row.visibility;
  if (row.visibility === 'in-collection' && row.parent) return 'in-collection';
  return row.parent && row.default_level === 'inherit' ? 'in-collection' : 'private';
}

type PublishedUrlFacts = Pick<SpaceRow, 'id' | 'organization_id' | 'organization_hostname' | 'organization_custom_hostname'>;

/**
 * The URL of the space's docs site (and of every published URL below it):
 * `<QUIRE_PUBLISHED_URL>/<org hostname or id>/<spaceId>`, or, when the organization has a custom
 * hostname, `<scheme of QUIRE_PUBLISHED_URL>//<custom hostname>/<spaceId>`: the custom hostname
 * names the organization, so there is no organization segment, and its sites sit at its root
 * (apps/api/src/site/custom-host-sites.ts). No port: the operator's proxy serves that host.
 */
export const publishedSpaceUrl = (config: QuireConfig, row: PublishedUrlFacts) =>
  row.organization_custom_hostname
    ? `${customHostnameOrigin(config, row.organization_custom_hostname)}/${row.id}`
    : `${config.publishedUrl}/${row.organization_hostname ?? row.organization_id}/${row.id}`;

/** `<scheme of QUIRE_PUBLISHED_URL>//<custom hostname>`. */
export const customHostnameOrigin = (config: QuireConfig, customHostname: string) => `${new URL(config.publishedUrl).protocol}//${customHostname}`;

/** GitBook's Space, with `permissions` for the caller's `role`. */
export function presentSpace(config: QuireConfig, row: SpaceRow, role: Role | null) {
  const visibility = spaceVisibility(row);
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji ?? '',
    visibility,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    ...(row.deleted_at ? { deletedAt: iso(row.deleted_at) } : {}),
    editMode: row.edit_mode,
    mergeRules: row.merge_rules,
    urls: {
      location: `${config.publicUrl}/v1/spaces/${row.id}`,
      app: `${config.appUrl}/s/${row.id}`,
      ...(visibility !== 'private' ? publishedUrls(config, row, visibility) : {}),
      ...(visibility === 'public' ? { public: publishedSpaceUrl(config, row) } : {}),
      ...(row.icon ? { icon: row.icon } : {}),
    },
    organization: row.organization_id,
    ...(row.parent ? { parent: row.parent } : {}),
    ...(row.language ? { language: row.language } : {}),
    ...(row.git_sync ? { gitSync: withoutInternals(row.git_sync) } : {}),
    revision: row.revision,
    defaultLevel: decodeLevel(row.default_level),
    comments: row.comments,
    changeRequests: row.change_requests,
    changeRequestsOpen: row.change_requests_open,
    changeRequestsDraft: row.change_requests_draft,
    permissions: spacePermissions(role, row.edit_mode),
  };
}

/**
 * presentSpace as JSON bytes, made once per row object and role. Meant for rows of the
 * space-access ReadCache (AccessService): an event that changes a space evicts its row and the
 * next read loads a new object, never changes the old one, so bytes made from a row are as fresh
 * as the row and go with it (a WeakMap: nothing here outlives the cache's entry).
 */
export function presentSpaceJson(config: QuireConfig, row: SpaceRow, role: Role | null): Buffer {
  let byRole = serializedSpaces.get(row);
  if (!byRole) serializedSpaces.set(row, (byRole = new Map()));
  let bytes = byRole.get(role);
  if (!bytes) byRole.set(role, (bytes = Buffer.from(JSON.stringify(presentSpace(config, row, role)))));
  return bytes;
}
const serializedSpaces = new WeakMap<SpaceRow, Map<Role | null, Buffer>>();

/**
 * What anyone may learn of a published space they have no role on (a public, unlisted or
 * share-link space found by its published URL): what its site shows. GitBook's Space requires
 * the organization, the counts, the merge rules and the default level; they are given neutral
 * values (empty, zero, inherit) rather than the space's own, which are its members' business.
 */
export function presentPublishedSpace(config: QuireConfig, row: SpaceRow) {
  const visibility = spaceVisibility(row);
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji ?? '',
    visibility,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    urls: {
      location: `${config.publicUrl}/v1/spaces/${row.id}`,
      app: `${config.appUrl}/s/${row.id}`,
      ...publishedUrls(config, row, visibility),
      ...(visibility === 'public' ? { public: publishedSpaceUrl(config, row) } : {}),
      ...(row.icon ? { icon: row.icon } : {}),
    },
    organization: '',
    ...(row.language ? { language: row.language } : {}),
    revision: row.revision,
    defaultLevel: 'inherit' as const,
    mergeRules: { type: 'inherit' as const },
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: spacePermissions('read', row.edit_mode),
  };
}

/** `urls.published`; a share-link space's is its share link, and absent while it has no key. */
function publishedUrls(config: QuireConfig, row: SpaceRow, visibility: string): { published?: string } {
  if (visibility !== 'share-link') return { published: publishedSpaceUrl(config, row) };
  const key = shareKey(config, row);
  return key ? { published: `${publishedSpaceUrl(config, row)}?${SHARE_PARAM}=${key}` } : {};
}

export const iso = (d: Date | string) => new Date(d).toISOString();

/** The read model remembers which import or export its git-sync state describes; clients don't need it. */
function withoutInternals(gitSync: Record<string, unknown>): Record<string, unknown> {
  const { importId: _importId, exportId: _exportId, ...state } = gitSync;
  return state;
}
