import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, ListResponse, timeIdCursor, toPage } from '@quire/platform/http/pagination';
import { SiteCustomization, SiteRedirectDestination, SiteVisibility } from '@quire/domain';

export interface SiteRow {
  id: string;
  organization_id: string;
  title: string;
  basename: string;
  visibility: SiteVisibility;
  published: boolean;
  default_site_space_id: string | null;
  /** null until the site's customization is first updated (the defaults apply). */
  customization: SiteCustomization | null;
  customization_updated_at: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  /** The organization's hostname and custom hostname, for published URLs. */
  organization_hostname: string | null;
  organization_custom_hostname: string | null;
  /** How many site spaces the site has. */
  site_spaces: number;
}

export interface SiteSpaceRow {
  id: string;
  site_id: string;
  space_id: string;
  path: string;
  title: string | null;
  hidden: boolean;
  position: number;
  created_at: Date;
}

/** A site space a published site shows: its space is live (not deleted) and it is not hidden. */
export interface PublishedSiteSpaceRow extends SiteSpaceRow {
  space_title: string;
  revision: string;
}

export interface SiteShareLinkRow {
  id: string;
  site_id: string;
  name: string | null;
  active: boolean;
  created_at: Date;
}

export interface SiteRedirectRow {
  id: string;
  site_id: string;
  source: string;
  destination: SiteRedirectDestination;
  permanent: boolean;
  capture_wildcard: boolean;
  created_at: Date;
  updated_at: Date;
}

const SITE_COLUMNS = `s.*, o.hostname AS organization_hostname, o.custom_hostname AS organization_custom_hostname,
  (SELECT count(*)::int FROM rm_site_spaces ss WHERE ss.site_id = s.id) AS site_spaces`;

export class SiteQueries {
  constructor(private readonly db: Queryable) {}

  async site(siteId: string): Promise<SiteRow | undefined> {
    return (await this.db.query<SiteRow>(`SELECT ${SITE_COLUMNS} FROM rm_sites s JOIN rm_organizations o ON o.id = s.organization_id WHERE s.id = $1`, [siteId])).rows[0];
  }

  /**
   * The site an organization serves under `basename`. Basenames are checked for uniqueness when
   * set; should two sites still share one (two requests racing), the older one is served.
   */
  async siteByBasename(organizationId: string, basename: string): Promise<SiteRow | undefined> {
    const r = await this.db.query<SiteRow>(
      `SELECT ${SITE_COLUMNS} FROM rm_sites s JOIN rm_organizations o ON o.id = s.organization_id
        WHERE s.organization_id = $1 AND s.basename = $2 ORDER BY s.created_at, s.id LIMIT 1`,
      [organizationId, basename],
    );
    return r.rows[0];
  }

  /**
   * The spaces a site publishes now: none unless it is published and, for a share-link site,
   * `shareLinkId` names an active share link of it. What a site token is checked against.
   */
  async publishedSpaceIds(siteId: string, shareLinkId: string | undefined): Promise<string[]> {
    const r = await this.db.query<{ space_id: string }>(
      `SELECT ss.space_id FROM rm_sites s JOIN rm_site_spaces ss ON ss.site_id = s.id
        WHERE s.id = $1 AND s.published AND NOT ss.hidden
          AND (s.visibility <> 'share-link' OR EXISTS (SELECT 1 FROM rm_site_share_links l WHERE l.site_id = s.id AND l.id = $2 AND l.active))`,
      [siteId, shareLinkId ?? null],
    );
    return r.rows.map((row) => row.space_id);
  }

  /** Sites of an organization, oldest first; `published` and `title` (a part of it, any case) filter them. */
  async inOrganization(organizationId: string, opts: { page?: string; limit: number; published?: boolean; title?: string }): Promise<ListResponse<SiteRow>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    const r = await this.db.query<SiteRow>(
      `SELECT ${SITE_COLUMNS} FROM rm_sites s JOIN rm_organizations o ON o.id = s.organization_id
        WHERE s.organization_id = $1 AND ($2::timestamptz IS NULL OR (s.created_at, s.id) > ($2::timestamptz, $3::text))
          AND ($5::boolean IS NULL OR s.published = $5) AND ($6::text IS NULL OR strpos(lower(s.title), lower($6)) > 0)
        ORDER BY s.created_at, s.id LIMIT $4`,
      [organizationId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1, opts.published ?? null, opts.title ?? null],
    );
    return toPage(r.rows, opts.limit, (row) => row, (row) => [new Date(row.created_at).toISOString(), row.id]);
  }

  /** A site's site spaces in the order they were added (a site has at most 100). */
  async siteSpaces(siteId: string): Promise<SiteSpaceRow[]> {
    return (await this.db.query<SiteSpaceRow>(`SELECT * FROM rm_site_spaces WHERE site_id = $1 ORDER BY position`, [siteId])).rows;
  }

  /** The site spaces a published site shows visitors, in order, with their spaces' live revisions. */
  async publishedSiteSpaces(siteId: string): Promise<PublishedSiteSpaceRow[]> {
    const r = await this.db.query<PublishedSiteSpaceRow>(
      `SELECT ss.*, sp.title AS space_title, sp.revision FROM rm_site_spaces ss JOIN rm_spaces sp ON sp.id = ss.space_id
        WHERE ss.site_id = $1 AND NOT ss.hidden AND sp.deleted_at IS NULL ORDER BY ss.position`,
      [siteId],
    );
    return r.rows;
  }

  async shareLinks(siteId: string, opts: { page?: string; limit: number }): Promise<ListResponse<SiteShareLinkRow>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    const r = await this.db.query<SiteShareLinkRow>(
      `SELECT * FROM rm_site_share_links WHERE site_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::text))
        ORDER BY created_at, id LIMIT $4`,
      [siteId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
    );
    return toPage(r.rows, opts.limit, (row) => row, (row) => [new Date(row.created_at).toISOString(), row.id]);
  }

  async shareLink(siteId: string, shareLinkId: string): Promise<SiteShareLinkRow | undefined> {
    return (await this.db.query<SiteShareLinkRow>(`SELECT * FROM rm_site_share_links WHERE site_id = $1 AND id = $2`, [siteId, shareLinkId])).rows[0];
  }

  /** The active share links of a site, to check a key against (a site has at most 50). */
  async activeShareLinks(siteId: string): Promise<SiteShareLinkRow[]> {
    return (await this.db.query<SiteShareLinkRow>(`SELECT * FROM rm_site_share_links WHERE site_id = $1 AND active`, [siteId])).rows;
  }

  async redirects(siteId: string, opts: { page?: string; limit: number }): Promise<ListResponse<SiteRedirectRow>> {
    const after = decodeCursor(opts.page, timeIdCursor);
    const r = await this.db.query<SiteRedirectRow>(
      `SELECT * FROM rm_site_redirects WHERE site_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::text))
        ORDER BY created_at, id LIMIT $4`,
      [siteId, after?.[0] ?? null, after?.[1] ?? null, opts.limit + 1],
    );
    return toPage(r.rows, opts.limit, (row) => row, (row) => [new Date(row.created_at).toISOString(), row.id]);
  }

  async redirect(siteId: string, redirectId: string): Promise<SiteRedirectRow | undefined> {
    return (await this.db.query<SiteRedirectRow>(`SELECT * FROM rm_site_redirects WHERE site_id = $1 AND id = $2`, [siteId, redirectId])).rows[0];
  }

  /**
   * The redirect for a path of the site: an exact source first, otherwise the longest wildcard
   * source (`/old/*` or `/old*`) that is a prefix of the path.
   */
  async redirectFor(siteId: string, path: string): Promise<SiteRedirectRow | undefined> {
    const r = await this.db.query<SiteRedirectRow>(
      `SELECT * FROM rm_site_redirects
        WHERE site_id = $1 AND (source = $2 OR (right(source, 1) = '*' AND starts_with($2, left(source, -1))))
        ORDER BY (source = $2) DESC, length(source) DESC LIMIT 1`,
      [siteId, path],
    );
    return r.rows[0];
  }
}
