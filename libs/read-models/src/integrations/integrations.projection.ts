import type { IntegrationPublished, IntegrationUnpublished } from '@quire/domain';
import { Projection } from '@quire/projections/projection';

/**
 * Published integrations as GitBook lists them, and their images (icon, previews) by content
 * hash. Scripts and sealed secrets stay in the events: nothing here serves them.
 */
export const integrationsProjection: Projection = {
  name: 'integrations',
  version: 1,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_integrations', 'rm_integration_assets'],
  handles: ['IntegrationPublished', 'IntegrationUnpublished'],
  schema: (t) => `
    CREATE TABLE ${t('rm_integrations')} (
      name text PRIMARY KEY, organization_id text NOT NULL, version int NOT NULL, runtime text NOT NULL,
      title text NOT NULL, description text NOT NULL, summary text, visibility text NOT NULL, target text NOT NULL,
      scopes jsonb NOT NULL, categories jsonb NOT NULL, blocks jsonb, content_sources jsonb, external_links jsonb NOT NULL,
      configurations jsonb, content_security_policy jsonb, icon jsonb, preview_images jsonb NOT NULL,
      block_domains text[] NOT NULL, has_secrets boolean NOT NULL, published_by text NOT NULL,
      created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL);
    CREATE INDEX rm_integrations_owner ON ${t('rm_integrations')} (organization_id, name);
    CREATE TABLE ${t('rm_integration_assets')} (
      integration_name text NOT NULL, sha256 text NOT NULL, content_type text NOT NULL, bytes bytea NOT NULL,
      PRIMARY KEY (integration_name, sha256));
  `,
  async apply(event, tx, t) {
    switch (event.type) {
      case 'IntegrationPublished': {
        const d = event.data as IntegrationPublished['data'];
        const def = d.definition;
        const ref = (a: { sha256: string; contentType: string }) => ({ sha256: a.sha256, contentType: a.contentType });
        await tx.query(
          `INSERT INTO ${t('rm_integrations')} (name, organization_id, version, runtime, title, description, summary, visibility, target,
             scopes, categories, blocks, content_sources, external_links, configurations, content_security_policy, icon, preview_images,
             block_domains, has_secrets, published_by, created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$22)
           ON CONFLICT (name) DO UPDATE SET organization_id = EXCLUDED.organization_id, version = EXCLUDED.version, runtime = EXCLUDED.runtime,
             title = EXCLUDED.title, description = EXCLUDED.description, summary = EXCLUDED.summary, visibility = EXCLUDED.visibility,
             target = EXCLUDED.target, scopes = EXCLUDED.scopes, categories = EXCLUDED.categories, blocks = EXCLUDED.blocks,
             content_sources = EXCLUDED.content_sources, external_links = EXCLUDED.external_links, configurations = EXCLUDED.configurations,
             content_security_policy = EXCLUDED.content_security_policy, icon = EXCLUDED.icon, preview_images = EXCLUDED.preview_images,
             block_domains = EXCLUDED.block_domains, has_secrets = EXCLUDED.has_secrets, published_by = EXCLUDED.published_by,
             updated_at = EXCLUDED.updated_at`,
          [
            d.name, d.organizationId, d.version, def.runtime, def.title, def.description, def.summary ?? null, def.visibility, def.target,
            JSON.stringify(def.scopes), JSON.stringify(def.categories), json(def.blocks), json(def.contentSources), JSON.stringify(def.externalLinks),
            json(def.configurations), json(def.contentSecurityPolicy), def.icon ? JSON.stringify(ref(def.icon)) : null,
            JSON.stringify(def.previewImages.map(ref)), blockDomains(def.blocks), !!d.secrets, d.publishedBy, d.at,
          ],
        );
        await tx.query(`DELETE FROM ${t('rm_integration_assets')} WHERE integration_name = $1`, [d.name]);
        for (const asset of [...(def.icon ? [def.icon] : []), ...def.previewImages]) {
          await tx.query(
            `INSERT INTO ${t('rm_integration_assets')} (integration_name, sha256, content_type, bytes) VALUES ($1,$2,$3,$4)
             ON CONFLICT (integration_name, sha256) DO NOTHING`,
            [d.name, asset.sha256, asset.contentType, Buffer.from(asset.base64, 'base64')],
          );
        }
        break;
      }
      case 'IntegrationUnpublished': {
        const d = event.data as IntegrationUnpublished['data'];
        await tx.query(`DELETE FROM ${t('rm_integrations')} WHERE name = $1`, [d.name]);
        await tx.query(`DELETE FROM ${t('rm_integration_assets')} WHERE integration_name = $1`, [d.name]);
        break;
      }
    }
  },
};

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/** Hostnames the integration's blocks unfurl (`urlUnfurl` patterns), for the `blockDomain` filter. */
export function blockDomains(blocks: unknown[] | undefined): string[] {
  const hosts = new Set<string>();
  for (const block of blocks ?? []) {
    for (const pattern of ((block as { urlUnfurl?: unknown }).urlUnfurl as unknown[] | undefined) ?? []) {
      const m = typeof pattern === 'string' ? /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:?#]+)/i.exec(pattern) : null;
      if (m) hosts.add(m[1].toLowerCase().replace(/^\*\./, ''));
    }
  }
  return [...hosts].sort();
}
