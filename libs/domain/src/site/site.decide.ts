import { badRequest, conflict, notFound, unprocessable } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { mergeSiteCustomization } from './site-customization';
import { SiteChanges, SiteEvent, SiteRedirectChanges, SiteRedirectDestination, SiteSpaceChanges, SiteVisibility } from './site.events';
import { SiteState } from './site.state';

export const SITE_TITLE_MIN = 2;
export const SITE_TITLE_MAX = 128;
/** GitBook's SiteBasename; Quire also keeps it URL-safe, since it is a path segment of the site's URL. */
export const SITE_BASENAME_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$/;
export const SITE_SPACE_PATH_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$/;
/** GitBook's SiteRedirectSourcePath: an absolute path, optionally ending in a `*` wildcard. */
export const SITE_REDIRECT_SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const SITE_REDIRECT_SOURCE_MAX = 512;
export const SITE_MAX_SPACES = 100;
export const SITE_MAX_SHARE_LINKS = 50;
export const SITE_MAX_REDIRECTS = 1000;
export const SITE_SHARE_LINK_NAME_MAX = 50;

/** A space as the handler read it: a site shows only spaces of its own organization. */
export interface SiteSpaceCandidate {
  spaceId: string;
  organizationId: string;
  title: string;
}

export interface CreateSite {
  type: 'CreateSite';
  siteId: string;
  organizationId: string;
  title: string;
  basename?: string;
  visibility?: SiteVisibility;
  creatorId: string;
}
export interface UpdateSite {
  type: 'UpdateSite';
  changes: SiteChanges;
}
export interface DeleteSite {
  type: 'DeleteSite';
}
export interface PublishSite {
  type: 'PublishSite';
}
export interface UnpublishSite {
  type: 'UnpublishSite';
}
export interface AddSiteSpace {
  type: 'AddSiteSpace';
  siteSpaceId: string;
  space: SiteSpaceCandidate;
  path?: string;
}
export interface UpdateSiteSpace {
  type: 'UpdateSiteSpace';
  siteSpaceId: string;
  changes: Omit<SiteSpaceChanges, 'spaceId'> & { space?: SiteSpaceCandidate; default?: boolean };
}
export interface RemoveSiteSpace {
  type: 'RemoveSiteSpace';
  siteSpaceId: string;
}
export interface UpdateSiteCustomization {
  type: 'UpdateSiteCustomization';
  /** What changes; objects merge into the current settings, other values replace. */
  customization: Record<string, unknown>;
}
export interface CreateSiteShareLink {
  type: 'CreateSiteShareLink';
  shareLinkId: string;
  name?: string;
}
export interface UpdateSiteShareLink {
  type: 'UpdateSiteShareLink';
  shareLinkId: string;
  changes: { name?: string; active?: boolean };
}
export interface DeleteSiteShareLink {
  type: 'DeleteSiteShareLink';
  shareLinkId: string;
}
export interface CreateSiteRedirect {
  type: 'CreateSiteRedirect';
  redirectId: string;
  source: string;
  destination: SiteRedirectDestination;
  permanent?: boolean;
  captureWildcard?: boolean;
}
export interface UpdateSiteRedirect {
  type: 'UpdateSiteRedirect';
  redirectId: string;
  changes: SiteRedirectChanges;
}
export interface DeleteSiteRedirect {
  type: 'DeleteSiteRedirect';
  redirectId: string;
}

export type SiteCommand =
  | CreateSite
  | UpdateSite
  | DeleteSite
  | PublishSite
  | UnpublishSite
  | AddSiteSpace
  | UpdateSiteSpace
  | RemoveSiteSpace
  | UpdateSiteCustomization
  | CreateSiteShareLink
  | UpdateSiteShareLink
  | DeleteSiteShareLink
  | CreateSiteRedirect
  | UpdateSiteRedirect
  | DeleteSiteRedirect;

export function decideSite(command: SiteCommand, state: SiteState, ctx: DecideContext): SiteEvent[] {
  const at = ctx.now.toISOString();
  if (command.type === 'CreateSite') {
    if (state.exists) throw conflict(`Site ${command.siteId} already exists`);
    assertTitle(command.title);
    const basename = command.basename ?? command.siteId.toLowerCase();
    assertBasename(basename);
    return [
      {
        type: 'SiteCreated',
        data: {
          siteId: command.siteId,
          organizationId: command.organizationId,
          title: command.title,
          basename,
          visibility: command.visibility ?? 'public',
          createdBy: command.creatorId,
          createdAt: at,
        },
      },
    ];
  }
  // A deleted site is gone: deleting it again is a no-op, anything else does not find it.
  if (command.type === 'DeleteSite') return state.exists && !state.deleted ? [{ type: 'SiteDeleted', data: { siteId: state.siteId!, at } }] : [];
  if (!state.exists || state.deleted) throw notFound('Site not found');
  const siteId = state.siteId!;

  switch (command.type) {
    case 'UpdateSite': {
      const c = command.changes;
      const changes: SiteChanges = {};
      if (c.title !== undefined && c.title !== state.title) changes.title = c.title;
      if (c.basename !== undefined && c.basename !== state.basename) changes.basename = c.basename;
      if (c.visibility !== undefined && c.visibility !== state.visibility) changes.visibility = c.visibility;
      if (changes.title !== undefined) assertTitle(changes.title);
      if (changes.basename !== undefined) assertBasename(changes.basename);
      return Object.keys(changes).length === 0 ? [] : [{ type: 'SiteUpdated', data: { siteId, changes, at } }];
    }
    case 'PublishSite':
      if (state.published) return [];
      if (state.siteSpaces.length === 0) throw unprocessable('A site needs at least one site space before it is published');
      return [{ type: 'SitePublished', data: { siteId, at } }];
    case 'UnpublishSite':
      return state.published ? [{ type: 'SiteUnpublished', data: { siteId, at } }] : [];
    case 'AddSiteSpace': {
      assertSameOrganization(state, command.space);
      if (state.siteSpaces.length >= SITE_MAX_SPACES) throw unprocessable(`A site shows at most ${SITE_MAX_SPACES} spaces`);
      const path = command.path ?? uniquePath(state, slugify(command.space.title) || command.space.spaceId.toLowerCase());
      assertPath(state, path, command.siteSpaceId);
      const events: SiteEvent[] = [{ type: 'SiteSpaceAdded', data: { siteId, siteSpaceId: command.siteSpaceId, spaceId: command.space.spaceId, path, at } }];
      if (state.defaultSiteSpaceId === null) events.push({ type: 'SiteDefaultSpaceSet', data: { siteId, siteSpaceId: command.siteSpaceId, at } });
      return events;
    }
    case 'UpdateSiteSpace': {
      const current = siteSpaceOf(state, command.siteSpaceId);
      const c = command.changes;
      const changes: SiteSpaceChanges = {};
      if (c.space !== undefined && c.space.spaceId !== current.spaceId) {
        assertSameOrganization(state, c.space);
        changes.spaceId = c.space.spaceId;
      }
      if (c.path !== undefined && c.path !== current.path) {
        assertPath(state, c.path, command.siteSpaceId);
        changes.path = c.path;
      }
      if (c.title !== undefined && (c.title ?? undefined) !== current.title) changes.title = c.title;
      if (c.hidden !== undefined && c.hidden !== current.hidden) changes.hidden = c.hidden;
      const events: SiteEvent[] = Object.keys(changes).length ? [{ type: 'SiteSpaceUpdated', data: { siteId, siteSpaceId: command.siteSpaceId, changes, at } }] : [];
      if (c.default === true && state.defaultSiteSpaceId !== command.siteSpaceId) {
        events.push({ type: 'SiteDefaultSpaceSet', data: { siteId, siteSpaceId: command.siteSpaceId, at } });
      } else if (c.default === false && state.defaultSiteSpaceId === command.siteSpaceId) {
        throw badRequest('A site always has a default site space: make another one the default instead');
      }
      return events;
    }
    case 'RemoveSiteSpace': {
      if (!state.siteSpaces.some((s) => s.siteSpaceId === command.siteSpaceId)) return [];
      const remaining = state.siteSpaces.filter((s) => s.siteSpaceId !== command.siteSpaceId);
      if (state.published && remaining.length === 0) throw unprocessable('A published site keeps at least one site space: unpublish it first');
      const events: SiteEvent[] = [{ type: 'SiteSpaceRemoved', data: { siteId, siteSpaceId: command.siteSpaceId, at } }];
      if (state.defaultSiteSpaceId === command.siteSpaceId) {
        events.push({ type: 'SiteDefaultSpaceSet', data: { siteId, siteSpaceId: remaining[0]?.siteSpaceId ?? null, at } });
      }
      // Redirects to the removed site space would lead nowhere.
      for (const [redirectId, r] of Object.entries(state.redirects)) {
        if (r.destination.kind !== 'external' && r.destination.siteSpaceId === command.siteSpaceId) {
          events.push({ type: 'SiteRedirectDeleted', data: { siteId, redirectId, at } });
        }
      }
      return events;
    }
    case 'UpdateSiteCustomization': {
      const customization = mergeSiteCustomization(state.customization, command.customization);
      if (JSON.stringify(customization) === JSON.stringify(state.customization)) return [];
      return [{ type: 'SiteCustomizationUpdated', data: { siteId, customization, at } }];
    }
    case 'CreateSiteShareLink': {
      if (Object.keys(state.shareLinks).length >= SITE_MAX_SHARE_LINKS) throw unprocessable(`A site has at most ${SITE_MAX_SHARE_LINKS} share links`);
      assertShareLinkName(command.name);
      return [{ type: 'SiteShareLinkCreated', data: { siteId, shareLinkId: command.shareLinkId, ...(command.name !== undefined ? { name: command.name } : {}), at } }];
    }
    case 'UpdateSiteShareLink': {
      const current = state.shareLinks[command.shareLinkId];
      if (!current) throw notFound('Share link not found');
      const changes: { name?: string; active?: boolean } = {};
      if (command.changes.name !== undefined && command.changes.name !== current.name) changes.name = command.changes.name;
      if (command.changes.active !== undefined && command.changes.active !== current.active) changes.active = command.changes.active;
      assertShareLinkName(changes.name);
      return Object.keys(changes).length ? [{ type: 'SiteShareLinkUpdated', data: { siteId, shareLinkId: command.shareLinkId, changes, at } }] : [];
    }
    case 'DeleteSiteShareLink':
      return state.shareLinks[command.shareLinkId] ? [{ type: 'SiteShareLinkDeleted', data: { siteId, shareLinkId: command.shareLinkId, at } }] : [];
    case 'CreateSiteRedirect': {
      if (Object.keys(state.redirects).length >= SITE_MAX_REDIRECTS) throw unprocessable(`A site has at most ${SITE_MAX_REDIRECTS} redirects`);
      assertRedirect(state, command.source, command.destination, command.redirectId);
      return [
        {
          type: 'SiteRedirectCreated',
          data: { siteId, redirectId: command.redirectId, source: command.source, destination: command.destination, permanent: command.permanent ?? false, captureWildcard: command.captureWildcard ?? false, at },
        },
      ];
    }
    case 'UpdateSiteRedirect': {
      const current = state.redirects[command.redirectId];
      if (!current) throw notFound('Redirect not found');
      const c = command.changes;
      const changes: SiteRedirectChanges = {};
      if (c.source !== undefined && c.source !== current.source) changes.source = c.source;
      if (c.destination !== undefined && JSON.stringify(c.destination) !== JSON.stringify(current.destination)) changes.destination = c.destination;
      if (c.permanent !== undefined && c.permanent !== current.permanent) changes.permanent = c.permanent;
      if (c.captureWildcard !== undefined && c.captureWildcard !== current.captureWildcard) changes.captureWildcard = c.captureWildcard;
      assertRedirect(state, changes.source ?? current.source, changes.destination ?? current.destination, command.redirectId);
      return Object.keys(changes).length ? [{ type: 'SiteRedirectUpdated', data: { siteId, redirectId: command.redirectId, changes, at } }] : [];
    }
    case 'DeleteSiteRedirect':
      return state.redirects[command.redirectId] ? [{ type: 'SiteRedirectDeleted', data: { siteId, redirectId: command.redirectId, at } }] : [];
  }
}

/** A path segment made of a title: lower case, accents and punctuation dropped, words joined by `-`. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

function uniquePath(state: SiteState, base: string): string {
  const taken = new Set(state.siteSpaces.map((s) => s.path));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function siteSpaceOf(state: SiteState, siteSpaceId: string) {
  const found = state.siteSpaces.find((s) => s.siteSpaceId === siteSpaceId);
  if (!found) throw notFound('Site space not found');
  return found;
}

function assertTitle(title: string): void {
  const length = [...title].length;
  if (length < SITE_TITLE_MIN || length > SITE_TITLE_MAX) throw badRequest(`A site title has ${SITE_TITLE_MIN} to ${SITE_TITLE_MAX} characters`);
}

function assertBasename(basename: string): void {
  if (!SITE_BASENAME_PATTERN.test(basename)) throw badRequest('A site basename has 1 to 100 lower-case letters, digits, ".", "_" or "-", starting and ending with a letter or digit');
}

function assertPath(state: SiteState, path: string, siteSpaceId: string): void {
  if (!SITE_SPACE_PATH_PATTERN.test(path)) throw badRequest('A site space path has 1 to 100 lower-case letters, digits, ".", "_" or "-", starting and ending with a letter or digit');
  if (state.siteSpaces.some((s) => s.path === path && s.siteSpaceId !== siteSpaceId)) throw conflict(`Another site space of this site has the path "${path}"`);
}

function assertSameOrganization(state: SiteState, space: SiteSpaceCandidate): void {
  if (space.organizationId !== state.organizationId) throw badRequest('The space belongs to another organization');
}

function assertShareLinkName(name: string | undefined): void {
  if (name !== undefined && [...name].length > SITE_SHARE_LINK_NAME_MAX) throw badRequest(`A share link name has at most ${SITE_SHARE_LINK_NAME_MAX} characters`);
}

function assertRedirect(state: SiteState, source: string, destination: SiteRedirectDestination, redirectId: string): void {
  if (source.length > SITE_REDIRECT_SOURCE_MAX || !SITE_REDIRECT_SOURCE_PATTERN.test(source)) throw badRequest(`Invalid redirect source "${source}"`);
  if (Object.entries(state.redirects).some(([id, r]) => id !== redirectId && r.source === source)) throw conflict(`A redirect from "${source}" already exists`);
  if (destination.kind !== 'external' && !state.siteSpaces.some((s) => s.siteSpaceId === destination.siteSpaceId)) {
    throw badRequest('The redirect destination names a site space this site does not have');
  }
}
