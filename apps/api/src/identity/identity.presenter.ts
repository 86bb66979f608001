import { QuireConfig } from '@quire/platform/config/config';
import { Role, roleAtLeast } from '@quire/domain';
import { MemberRow, OrganizationRow, UserRow } from '@quire/read-models/identity/identity.queries';

/** GitBook's User, with private fields (email) only for the user themself or an instance admin. */
export function presentUser(config: QuireConfig, u: UserRow, opts: { private: boolean }) {
  return {
    object: 'user' as const,
    id: u.id,
    displayName: u.display_name,
    ...(opts.private ? { email: u.email } : {}),
    ...(u.photo_url ? { photoURL: u.photo_url } : {}),
    urls: { location: `${config.publicUrl}/v1/users/${u.id}` },
  };
}

export function presentOrganization(config: QuireConfig, o: OrganizationRow, role: Role | null) {
  const member = !!role;
  const admin = roleAtLeast(role, 'admin');
  return {
    object: 'organization' as const,
    id: o.id,
    title: o.title,
    createdAt: new Date(o.created_at).toISOString(),
    ...(o.hostname ? { hostname: o.hostname } : {}),
    ...(o.custom_hostname ? { customHostname: o.custom_hostname } : {}),
    type: 'business' as const,
    emailDomains: [] as string[],
    plan: 'internal' as const,
    inviteLinks: false,
    mergeRules: o.merge_rules,
    trial: { status: 'notapplicable' as const, count: 0 },
    urls: { location: `${config.publicUrl}/v1/orgs/${o.id}`, app: `${config.appUrl}/o/${o.id}` },
    permissions: {
      view: member,
      access: member,
      admin,
      ownTeam: false,
      createContent: roleAtLeast(role, 'create'),
      createOpenAPISpec: roleAtLeast(role, 'create'),
      viewBilling: admin,
      listMembers: member,
      listTeams: member,
      listIntegrations: member,
      listInstallations: member,
      installIntegration: admin,
    },
  };
}

/** GitBook's OrganizationMember; `role: null` is a guest (MemberRoleOrGuest). */
export function presentMember(config: QuireConfig, m: Pick<MemberRow, 'user_id' | 'joined_at' | 'user'> & { role: Role | null }, opts: { private: boolean }) {
  return {
    object: 'member' as const,
    id: m.user_id,
    role: m.role,
    user: presentUser(config, m.user, opts),
    disabled: false,
    joinedAt: new Date(m.joined_at).toISOString(),
    sso: false,
    spaces: 0,
    teams: 0,
    sites: 0,
  };
}
