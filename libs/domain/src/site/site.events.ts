import { DomainEvent } from '../shared/event';

/** Who may open a published site: anyone, anyone with its URL (not indexed), or holders of a share link. */
export type SiteVisibility = 'public' | 'unlisted' | 'share-link';

/** GitBook's SiteCustomizationSettings, kept as the JSON object the API exchanges. */
export type SiteCustomization = Record<string, unknown>;

/** Where a redirect sends its visitors (GitBook's SiteRedirectDestination). */
export type SiteRedirectDestination =
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

export interface SiteChanges {
  title?: string;
  basename?: string;
  visibility?: SiteVisibility;
}

export interface SiteSpaceChanges {
  spaceId?: string;
  path?: string;
  /** null: the space's own title shows. */
  title?: string | null;
  hidden?: boolean;
}

export interface SiteRedirectChanges {
  source?: string;
  destination?: SiteRedirectDestination;
  permanent?: boolean;
  captureWildcard?: boolean;
}

export type SiteCreated = DomainEvent<
  'SiteCreated',
  { siteId: string; organizationId: string; title: string; basename: string; visibility: SiteVisibility; createdBy: string; createdAt: string }
>;
export type SiteUpdated = DomainEvent<'SiteUpdated', { siteId: string; changes: SiteChanges; at: string }>;
export type SiteDeleted = DomainEvent<'SiteDeleted', { siteId: string; at: string }>;
export type SitePublished = DomainEvent<'SitePublished', { siteId: string; at: string }>;
export type SiteUnpublished = DomainEvent<'SiteUnpublished', { siteId: string; at: string }>;
export type SiteSpaceAdded = DomainEvent<
  'SiteSpaceAdded',
  { siteId: string; siteSpaceId: string; spaceId: string; path: string; title?: string; at: string }
>;
export type SiteSpaceUpdated = DomainEvent<'SiteSpaceUpdated', { siteId: string; siteSpaceId: string; changes: SiteSpaceChanges; at: string }>;
/** The site space shown at the site's root (the first one added, until another is made default). */
export type SiteDefaultSpaceSet = DomainEvent<'SiteDefaultSpaceSet', { siteId: string; siteSpaceId: string | null; at: string }>;
export type SiteSpaceRemoved = DomainEvent<'SiteSpaceRemoved', { siteId: string; siteSpaceId: string; at: string }>;
/** Carries the complete settings after the change, so a read model needs no merge logic. */
export type SiteCustomizationUpdated = DomainEvent<'SiteCustomizationUpdated', { siteId: string; customization: SiteCustomization; at: string }>;
/** A share link's key is derived from QUIRE_SECRET_KEY and its id, never recorded. */
export type SiteShareLinkCreated = DomainEvent<'SiteShareLinkCreated', { siteId: string; shareLinkId: string; name?: string; at: string }>;
export type SiteShareLinkUpdated = DomainEvent<'SiteShareLinkUpdated', { siteId: string; shareLinkId: string; changes: { name?: string; active?: boolean }; at: string }>;
export type SiteShareLinkDeleted = DomainEvent<'SiteShareLinkDeleted', { siteId: string; shareLinkId: string; at: string }>;
export type SiteRedirectCreated = DomainEvent<
  'SiteRedirectCreated',
  { siteId: string; redirectId: string; source: string; destination: SiteRedirectDestination; permanent: boolean; captureWildcard: boolean; at: string }
>;
export type SiteRedirectUpdated = DomainEvent<'SiteRedirectUpdated', { siteId: string; redirectId: string; changes: SiteRedirectChanges; at: string }>;
export type SiteRedirectDeleted = DomainEvent<'SiteRedirectDeleted', { siteId: string; redirectId: string; at: string }>;

export type SiteEvent =
  | SiteCreated
  | SiteUpdated
  | SiteDeleted
  | SitePublished
  | SiteUnpublished
  | SiteSpaceAdded
  | SiteSpaceUpdated
  | SiteDefaultSpaceSet
  | SiteSpaceRemoved
  | SiteCustomizationUpdated
  | SiteShareLinkCreated
  | SiteShareLinkUpdated
  | SiteShareLinkDeleted
  | SiteRedirectCreated
  | SiteRedirectUpdated
  | SiteRedirectDeleted;

export const SITE_EVENT_TYPES: ReadonlyArray<SiteEvent['type']> = [
  'SiteCreated',
  'SiteUpdated',
  'SiteDeleted',
  'SitePublished',
  'SiteUnpublished',
  'SiteSpaceAdded',
  'SiteSpaceUpdated',
  'SiteDefaultSpaceSet',
  'SiteSpaceRemoved',
  'SiteCustomizationUpdated',
  'SiteShareLinkCreated',
  'SiteShareLinkUpdated',
  'SiteShareLinkDeleted',
  'SiteRedirectCreated',
  'SiteRedirectUpdated',
  'SiteRedirectDeleted',
];

export const siteStream = (siteId: string) => `site-${siteId}`;
