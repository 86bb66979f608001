import { Projection } from '@quire/projections/projection';

/** Users, their access tokens (hashes only), organizations (with their custom hostname) and memberships. */
export const identityProjection: Projection = {
  name: 'identity',
  // 2: organizations' custom_hostname. 3: organizations' merge_rules.
  version: 3,
  // apply reads no result of its writes: a rebuild may coalesce them.
  writeResultsUnused: true,
  tables: ['rm_users', 'rm_access_tokens', 'rm_organizations', 'rm_organization_members'],
  handles: [
    'UserCreated',
    'AccessTokenCreated',
    'OrganizationCreated',
    'OrganizationMemberRoleSet',
    'OrganizationMemberRemoved',
    'OrganizationCustomHostnameSet',
    'OrganizationCustomHostnameRemoved',
    'OrganizationMergeRulesChanged',
  ],
  schema: (t) => `
    CREATE TABLE ${t('rm_users')} (
      id text PRIMARY KEY, display_name text NOT NULL, email text NOT NULL, photo_url text,
      instance_admin boolean NOT NULL, created_at timestamptz NOT NULL);
    CREATE UNIQUE INDEX rm_users_email ON ${t('rm_users')} (lower(email));
    CREATE TABLE ${t('rm_access_tokens')} (
      id text PRIMARY KEY, user_id text NOT NULL, token_hash text NOT NULL UNIQUE, label text, created_at timestamptz NOT NULL);
    CREATE TABLE ${t('rm_organizations')} (
      id text PRIMARY KEY, title text NOT NULL, hostname text UNIQUE, created_by text NOT NULL, created_at timestamptz NOT NULL,
      custom_hostname text UNIQUE, merge_rules jsonb NOT NULL DEFAULT '{"type":"none"}');
    CREATE TABLE ${t('rm_organization_members')} (
      organization_id text NOT NULL, user_id text NOT NULL, role text NOT NULL, joined_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, user_id));
    CREATE INDEX rm_organization_members_user ON ${t('rm_organization_members')} (user_id);
  `,
  async apply(event, tx, t) {
    const d = event.data as any;
    switch (event.type) {
      case 'UserCreated':
        await tx.query(
          `INSERT INTO ${t('rm_users')} (id, display_name, email, photo_url, instance_admin, created_at) VALUES ($1,$2,$3,$4,$5,$6)
           ON CONFLICT (id) DO NOTHING`,
          [d.userId, d.displayName, d.email, d.photoURL ?? null, d.instanceAdmin, d.createdAt],
        );
        break;
      case 'AccessTokenCreated':
        await tx.query(
          `INSERT INTO ${t('rm_access_tokens')} (id, user_id, token_hash, label, created_at) VALUES ($1,$2,$3,$4,$5) ON CONFLICT (id) DO NOTHING`,
          [d.tokenId, d.userId, d.tokenHash, d.label ?? null, d.createdAt],
        );
        break;
      case 'OrganizationCreated':
        await tx.query(
          `INSERT INTO ${t('rm_organizations')} (id, title, hostname, created_by, created_at) VALUES ($1,$2,$3,$4,$5) ON CONFLICT (id) DO NOTHING`,
          [d.organizationId, d.title, d.hostname ?? null, d.createdBy, d.createdAt],
        );
        break;
      case 'OrganizationMemberRoleSet':
        await tx.query(
          `INSERT INTO ${t('rm_organization_members')} (organization_id, user_id, role, joined_at) VALUES ($1,$2,$3,$4)
           ON CONFLICT (organization_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
          [d.organizationId, d.userId, d.role, d.at],
        );
        break;
      case 'OrganizationMemberRemoved':
        await tx.query(`DELETE FROM ${t('rm_organization_members')} WHERE organization_id = $1 AND user_id = $2`, [d.organizationId, d.userId]);
        break;
      // Unique in event order: an organization leaves a hostname before another one claims it
      // (libs/domain/src/custom-hostname/custom-hostname.decide.ts).
      case 'OrganizationMergeRulesChanged':
        await tx.query(`UPDATE ${t('rm_organizations')} SET merge_rules = $2 WHERE id = $1`, [d.organizationId, JSON.stringify(d.mergeRules)]);
        break;
      case 'OrganizationCustomHostnameSet':
        await tx.query(`UPDATE ${t('rm_organizations')} SET custom_hostname = $2 WHERE id = $1`, [d.organizationId, d.hostname]);
        break;
      case 'OrganizationCustomHostnameRemoved':
        await tx.query(`UPDATE ${t('rm_organizations')} SET custom_hostname = NULL WHERE id = $1 AND custom_hostname = $2`, [d.organizationId, d.hostname]);
        break;
    }
  },
};
