import { Projection } from '@quire/projections/projection';
import { SITE_EVENT_TYPES, SiteEvent } from '@quire/domain';

/** Sites of organizations, their site spaces, share links and redirects. */
export const sitesProjection: Projection = {
  name: 'sites',
  version: 1,
  writeResultsUnused: true,
  tables: ['rm_sites', 'rm_site_spaces', 'rm_site_share_links', 'rm_site_redirects'],
  handles: SITE_EVENT_TYPES,
  schema: (t) => `
    CREATE TABLE ${t('rm_sites')} (
      id text PRIMARY KEY,
      organization_id text NOT NULL,
      title text NOT NULL,
      basename text NOT NULL,
      visibility text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      default_site_space_id text,
      customization jsonb,
      customization_updated_at timestamptz,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL);
    CREATE INDEX rm_sites_org_created ON ${t('rm_sites')} (organization_id, created_at, id);
    CREATE INDEX rm_sites_org_basename ON ${t('rm_sites')} (organization_id, basename);
    CREATE TABLE ${t('rm_site_spaces')} (
      id text PRIMARY KEY,
      site_id text NOT NULL,
      space_id text NOT NULL,
      path text NOT NULL,
      title text,
      hidden boolean NOT NULL DEFAULT false,
      position int NOT NULL,
      created_at timestamptz NOT NULL);
    CREATE INDEX rm_site_spaces_site ON ${t('rm_site_spaces')} (site_id, position);
    CREATE INDEX rm_site_spaces_space ON ${t('rm_site_spaces')} (space_id);
    CREATE TABLE ${t('rm_site_share_links')} (
      id text PRIMARY KEY,
      site_id text NOT NULL,
      name text,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL);
    CREATE INDEX rm_site_share_links_site ON ${t('rm_site_share_links')} (site_id, created_at, id);
    CREATE TABLE ${t('rm_site_redirects')} (
      id text PRIMARY KEY,
      site_id text NOT NULL,
      source text NOT NULL,
      destination jsonb NOT NULL,
      permanent boolean NOT NULL,
      capture_wildcard boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL);
    CREATE INDEX rm_site_redirects_site ON ${t('rm_site_redirects')} (site_id, created_at, id);
    CREATE INDEX rm_site_redirects_source ON ${t('rm_site_redirects')} (site_id, source);
  `,
  async apply(recorded, tx, t) {
    const event = recorded as unknown as SiteEvent;
    const touch = (siteId: string, at: string) => tx.query(`UPDATE ${t('rm_sites')} SET updated_at = $2 WHERE id = $1`, [siteId, at]);
    switch (event.type) {
      case 'SiteCreated': {
        const d = event.data;
        await tx.query(
          `INSERT INTO ${t('rm_sites')} (id, organization_id, title, basename, visibility, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING`,
          [d.siteId, d.organizationId, d.title, d.basename, d.visibility, d.createdBy, d.createdAt],
        );
        break;
      }
      case 'SiteUpdated': {
        const { siteId, changes: c, at } = event.data;
        await tx.query(
          `UPDATE ${t('rm_sites')} SET title = coalesce($2, title), basename = coalesce($3, basename), visibility = coalesce($4, visibility), updated_at = $5 WHERE id = $1`,
          [siteId, c.title ?? null, c.basename ?? null, c.visibility ?? null, at],
        );
        break;
      }
      case 'SiteDeleted': {
        const { siteId } = event.data;
        for (const table of ['rm_site_spaces', 'rm_site_share_links', 'rm_site_redirects']) await tx.query(`DELETE FROM ${t(table)} WHERE site_id = $1`, [siteId]);
        await tx.query(`DELETE FROM ${t('rm_sites')} WHERE id = $1`, [siteId]);
        break;
      }
      case 'SitePublished':
      case 'SiteUnpublished':
        await tx.query(`UPDATE ${t('rm_sites')} SET published = $2, updated_at = $3 WHERE id = $1`, [event.data.siteId, event.type === 'SitePublished', event.data.at]);
        break;
      case 'SiteSpaceAdded': {
        const d = event.data;
        await tx.query(
          `INSERT INTO ${t('rm_site_spaces')} (id, site_id, space_id, path, title, position, created_at)
           VALUES ($1, $2, $3, $4, $5, coalesce((SELECT max(position) + 1 FROM ${t('rm_site_spaces')} WHERE site_id = $2), 0), $6) ON CONFLICT (id) DO NOTHING`,
          [d.siteSpaceId, d.siteId, d.spaceId, d.path, d.title ?? null, d.at],
        );
        await touch(d.siteId, d.at);
        break;
      }
      case 'SiteSpaceUpdated': {
        const { siteId, siteSpaceId, changes: c, at } = event.data;
        await tx.query(
          `UPDATE ${t('rm_site_spaces')} SET space_id = coalesce($2, space_id), path = coalesce($3, path),
             title = CASE WHEN $4::boolean THEN $5 ELSE title END, hidden = coalesce($6, hidden) WHERE id = $1`,
          [siteSpaceId, c.spaceId ?? null, c.path ?? null, c.title !== undefined, c.title ?? null, c.hidden ?? null],
        );
        await touch(siteId, at);
        break;
      }
      case 'SiteDefaultSpaceSet':
        await tx.query(`UPDATE ${t('rm_sites')} SET default_site_space_id = $2, updated_at = $3 WHERE id = $1`, [event.data.siteId, event.data.siteSpaceId, event.data.at]);
        break;
      case 'SiteSpaceRemoved':
        await tx.query(`DELETE FROM ${t('rm_site_spaces')} WHERE id = $1`, [event.data.siteSpaceId]);
        await touch(event.data.siteId, event.data.at);
        break;
      case 'SiteCustomizationUpdated':
        await tx.query(`UPDATE ${t('rm_sites')} SET customization = $2, customization_updated_at = $3, updated_at = $3 WHERE id = $1`, [
          event.data.siteId,
          JSON.stringify(event.data.customization),
          event.data.at,
        ]);
        break;
      case 'SiteShareLinkCreated': {
        const d = event.data;
        await tx.query(`INSERT INTO ${t('rm_site_share_links')} (id, site_id, name, active, created_at) VALUES ($1, $2, $3, true, $4) ON CONFLICT (id) DO NOTHING`, [
          d.shareLinkId,
          d.siteId,
          d.name ?? null,
          d.at,
        ]);
        break;
      }
      case 'SiteShareLinkUpdated': {
        const { shareLinkId, changes: c } = event.data;
        await tx.query(`UPDATE ${t('rm_site_share_links')} SET name = coalesce($2, name), active = coalesce($3, active) WHERE id = $1`, [shareLinkId, c.name ?? null, c.active ?? null]);
        break;
      }
      case 'SiteShareLinkDeleted':
        await tx.query(`DELETE FROM ${t('rm_site_share_links')} WHERE id = $1`, [event.data.shareLinkId]);
        break;
      case 'SiteRedirectCreated': {
        const d = event.data;
        await tx.query(
          `INSERT INTO ${t('rm_site_redirects')} (id, site_id, source, destination, permanent, capture_wildcard, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING`,
          [d.redirectId, d.siteId, d.source, JSON.stringify(d.destination), d.permanent, d.captureWildcard, d.at],
        );
        break;
      }
      case 'SiteRedirectUpdated': {
        const { redirectId, changes: c, at } = event.data;
        await tx.query(
          `UPDATE ${t('rm_site_redirects')} SET source = coalesce($2, source), destination = coalesce($3::jsonb, destination), permanent = coalesce($4, permanent),
             capture_wildcard = coalesce($5, capture_wildcard), updated_at = $6 WHERE id = $1`,
          [redirectId, c.source ?? null, c.destination ? JSON.stringify(c.destination) : null, c.permanent ?? null, c.captureWildcard ?? null, at],
        );
        break;
      }
      case 'SiteRedirectDeleted':
        await tx.query(`DELETE FROM ${t('rm_site_redirects')} WHERE id = $1`, [event.data.redirectId]);
        break;
    }
  },
};
