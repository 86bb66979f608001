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

/** How a visitor names a site: by id, or by the address of one of its published URLs. */
export type PublishedSiteKey = { siteId: string } | { organization: string; basename: string } | { customHostname: string; basename: string };

/** A site as the published side reads it (SiteQueries.publishedSite). */
export interface PublishedSiteState {
  site: SiteRow;
  /** The site spaces it shows visitors, in order. */
  siteSpaces: PublishedSiteSpaceRow[];
  /** Ids of its active share links. */
  activeShareLinks: string[];
  /** The spaces of all its site spaces, shown or not: what else its state depends on. */
  spaceIds: string[];
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
   * Everything a visitor's request needs to know about a site, in one round trip: the site, the
   * site spaces it shows (live spaces, not hidden, in order, with their live revisions) and the
   * ids of its active share links. `at` finds it by id, or by the address of a published URL:
   * an organization (its hostname, else its id, under the published URL; its custom hostname
   * otherwise) and the site's basename.
   */
  async publishedSite(at: PublishedSiteKey): Promise<PublishedSiteState | undefined> {
    const [where, params] =
      'siteId' in at
        ? ['s.id = $1', [at.siteId]]
        : 'customHostname' in at
          ? ['s.organization_id = (SELECT id FROM rm_organizations WHERE custom_hostname = $1) AND s.basename = $2', [at.customHostname, at.basename]]
          : [
              // The hostname is tried first, then the id, as an organization's URLs name it.
              `s.organization_id = COALESCE((SELECT id FROM rm_organizations WHERE hostname = $1), (SELECT id FROM rm_organizations WHERE id = $1)) AND s.basename = $2`,
              [at.organization, at.basename],
            ];
    const r = await this.db.query<SiteRow & { shown: Array<PublishedSiteSpaceRow & { created_at: string }>; share_links: string[]; space_ids: string[] }>(
      `SELECT ${SITE_COLUMNS},
          COALESCE((SELECT json_agg(json_build_object('id', ss.id, 'site_id', ss.site_id, 'space_id', ss.space_id, 'path', ss.path, 'title', ss.title,
                      'hidden', ss.hidden, 'position', ss.position, 'created_at', ss.created_at, 'space_title', sp.title, 'revision', sp.revision) ORDER BY ss.position)
                    FROM rm_site_spaces ss JOIN rm_spaces sp ON sp.id = ss.space_id
                   WHERE ss.site_id = s.id AND NOT ss.hidden AND sp.deleted_at IS NULL), '[]') AS shown,
          COALESCE((SELECT json_agg(l.id) FROM rm_site_share_links l WHERE l.site_id = s.id AND l.active), '[]') AS share_links,
          COALESCE((SELECT json_agg(DISTINCT ss.space_id) FROM rm_site_spaces ss WHERE ss.site_id = s.id), '[]') AS space_ids
        FROM rm_sites s JOIN rm_organizations o ON o.id = s.organization_id
       WHERE ${where} ORDER BY s.created_at, s.id LIMIT 1`,
      params,
    );
    const row = r.rows[0];
    if (!row) return undefined;
    const { shown, share_links, space_ids, ...site } = row;
    return { site, siteSpaces: shown.map((ss) => ({ ...ss, created_at: new Date(ss.created_at) })), activeShareLinks: share_links, spaceIds: space_ids };
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
