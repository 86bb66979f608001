import { QuireConfig } from '@quire/platform/config/config';
import { OrganizationRow } from '@quire/read-models/identity/identity.queries';

/**
 * GitBook's CustomHostname, always targeting an organization (Quire has no sites to point one at).
 * Quire checks no DNS and issues no certificate: the operator's proxy routes the hostname to Quire
 * and terminates TLS, and Quire trusts it. So a custom hostname is active from the moment it is
 * set, with `status: 'live'` (of CustomHostnameStatus's values, the one for a hostname that is
 * fully serving: DNS passed and certificate live).
 */
export function presentCustomHostname(config: QuireConfig, organization: Pick<OrganizationRow, 'id'> & { custom_hostname: string }) {
  return {
    object: 'custom-hostname' as const,
    hostname: organization.custom_hostname,
    target: { type: 'organization' as const, organization: organization.id },
    isActive: true,
    status: 'live' as const,
    urls: { location: `${config.publicUrl}/v1/custom-hostnames/${organization.custom_hostname}` },
  };
}
