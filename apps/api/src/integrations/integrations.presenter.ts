import { QuireConfig } from '@quire/platform/config/config';
import { IntegrationRow } from '@quire/read-models/integrations/integrations.queries';
import { presentOrganization } from '../identity/identity.presenter';

export const integrationLocation = (config: QuireConfig, name: string) => `${config.publicUrl}/v1/integrations/${name}`;

/**
 * GitBook's Integration. Images are served by content hash under `urls.assets`; the public
 * endpoints are named for compatibility, Quire does not run integration scripts.
 */
export function presentIntegration(config: QuireConfig, row: IntegrationRow, viewer: { instanceAdmin: boolean }) {
  const location = integrationLocation(config, row.name);
  const assets = `${location}/assets`;
  const role = viewer.instanceAdmin ? 'admin' : row.caller_role;
  return {
    object: 'integration' as const,
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    ...(row.summary !== null ? { summary: row.summary } : {}),
    previewImages: row.preview_images.map((p) => `${assets}/${p.sha256}`),
    target: row.target,
    verified: false,
    visibility: row.visibility,
    scopes: row.scopes,
    categories: row.categories,
    ...(row.blocks ? { blocks: row.blocks } : {}),
    ...(row.content_sources ? { contentSources: row.content_sources } : {}),
    ...(row.configurations ? { configurations: row.configurations } : {}),
    externalLinks: row.external_links,
    owner: presentOrganization(config, row.owner, role),
    urls: {
      location,
      app: `${config.appUrl}/integrations/${row.name}`,
      assets,
      publicEndpoint: `${location}/integration`,
      publicContentEndpoint: `${location}/integration`,
      ...(row.icon ? { icon: `${assets}/${row.icon.sha256}` } : {}),
    },
    permissions: { admin: role === 'admin' },
    ...(row.content_security_policy !== null ? { contentSecurityPolicy: row.content_security_policy } : {}),
  };
}
