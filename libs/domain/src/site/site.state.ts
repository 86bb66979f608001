import { Aggregate } from '../shared/event';
import { SiteCustomization, SiteEvent, SiteRedirectDestination, SiteVisibility } from './site.events';
import { defaultSiteCustomization } from './site-customization';

export interface SiteSpaceState {
  siteSpaceId: string;
  spaceId: string;
  path: string;
  title?: string;
  hidden: boolean;
}

export interface SiteRedirectState {
  source: string;
  destination: SiteRedirectDestination;
  permanent: boolean;
  /** A wildcard source's matched suffix is appended to the destination. */
  captureWildcard: boolean;
}

export interface SiteState {
  exists: boolean;
  deleted: boolean;
  siteId?: string;
  organizationId?: string;
  title: string;
  basename: string;
  visibility: SiteVisibility;
  published: boolean;
  /** In the order they were added. */
  siteSpaces: SiteSpaceState[];
  defaultSiteSpaceId: string | null;
  customization: SiteCustomization;
  shareLinks: Record<string, { name?: string; active: boolean }>;
  redirects: Record<string, SiteRedirectState>;
}

export const siteAggregate: Aggregate<SiteState, SiteEvent> = {
  initialState: () => ({
    exists: false,
    deleted: false,
    title: '',
    basename: '',
    visibility: 'public',
    published: false,
    siteSpaces: [],
    defaultSiteSpaceId: null,
    customization: defaultSiteCustomization(),
    shareLinks: {},
    redirects: {},
  }),
  evolve(state, event) {
    switch (event.type) {
      case 'SiteCreated': {
        const d = event.data;
        return { ...state, exists: true, siteId: d.siteId, organizationId: d.organizationId, title: d.title, basename: d.basename, visibility: d.visibility };
      }
      case 'SiteUpdated':
        return { ...state, ...event.data.changes };
      case 'SiteDeleted':
        return { ...state, deleted: true, published: false };
      case 'SitePublished':
        return { ...state, published: true };
      case 'SiteUnpublished':
        return { ...state, published: false };
      case 'SiteSpaceAdded': {
        const d = event.data;
        return { ...state, siteSpaces: [...state.siteSpaces, { siteSpaceId: d.siteSpaceId, spaceId: d.spaceId, path: d.path, title: d.title, hidden: false }] };
      }
      case 'SiteSpaceUpdated': {
        const { siteSpaceId, changes } = event.data;
        return {
          ...state,
          siteSpaces: state.siteSpaces.map((s) =>
            s.siteSpaceId !== siteSpaceId
              ? s
              : {
                  ...s,
                  ...(changes.spaceId !== undefined ? { spaceId: changes.spaceId } : {}),
                  ...(changes.path !== undefined ? { path: changes.path } : {}),
                  ...(changes.title !== undefined ? { title: changes.title ?? undefined } : {}),
                  ...(changes.hidden !== undefined ? { hidden: changes.hidden } : {}),
                },
          ),
        };
      }
      case 'SiteDefaultSpaceSet':
        return { ...state, defaultSiteSpaceId: event.data.siteSpaceId };
      case 'SiteSpaceRemoved':
        return { ...state, siteSpaces: state.siteSpaces.filter((s) => s.siteSpaceId !== event.data.siteSpaceId) };
      case 'SiteCustomizationUpdated':
        return { ...state, customization: event.data.customization };
      case 'SiteShareLinkCreated':
        return { ...state, shareLinks: { ...state.shareLinks, [event.data.shareLinkId]: { name: event.data.name, active: true } } };
      case 'SiteShareLinkUpdated': {
        const current = state.shareLinks[event.data.shareLinkId];
        if (!current) return state;
        return { ...state, shareLinks: { ...state.shareLinks, [event.data.shareLinkId]: { ...current, ...event.data.changes } } };
      }
      case 'SiteShareLinkDeleted': {
        const { [event.data.shareLinkId]: _removed, ...shareLinks } = state.shareLinks;
        return { ...state, shareLinks };
      }
      case 'SiteRedirectCreated': {
        const d = event.data;
        return { ...state, redirects: { ...state.redirects, [d.redirectId]: { source: d.source, destination: d.destination, permanent: d.permanent, captureWildcard: d.captureWildcard } } };
      }
      case 'SiteRedirectUpdated': {
        const current = state.redirects[event.data.redirectId];
        if (!current) return state;
        return { ...state, redirects: { ...state.redirects, [event.data.redirectId]: { ...current, ...event.data.changes } } };
      }
      case 'SiteRedirectDeleted': {
        const { [event.data.redirectId]: _removed, ...redirects } = state.redirects;
        return { ...state, redirects };
      }
      default:
        return state;
    }
  },
};
