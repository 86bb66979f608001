import { Queryable } from '@quire/platform/db/db';
import { OrganizationMergeRules, Role } from '@quire/domain';
import { decodeCursor, idCursor, ListResponse, toPage } from '@quire/platform/http/pagination';

export interface UserRow {
  id: string;
  display_name: string;
  email: string;
  photo_url: string | null;
  instance_admin: boolean;
  created_at: Date;
}
export interface OrganizationRow {
  id: string;
  title: string;
  hostname: string | null;
  /** The merge rules of its spaces that `inherit` them (GitBook's MergeRulesStandaloneConfiguration). */
  merge_rules: OrganizationMergeRules;
  /** Where the organization's sites are also served (GitBook's `customHostname`). */
  custom_hostname: string | null;
  created_by: string;
  created_at: Date;
}
export interface MemberRow {
  organization_id: string;
  user_id: string;
  role: Role;
  joined_at: Date;
  user: UserRow;
}

export class IdentityQueries {
  constructor(private readonly db: Queryable) {}

  async userByTokenHash(hash: string): Promise<UserRow | undefined> {
    const r = await this.db.query<UserRow>(
      `SELECT u.* FROM rm_access_tokens t JOIN rm_users u ON u.id = t.user_id WHERE t.token_hash = $1`,
      [hash],
    );
    return r.rows[0];
  }

  async user(id: string): Promise<UserRow | undefined> {
    return (await this.db.query<UserRow>(`SELECT * FROM rm_users WHERE id = $1`, [id])).rows[0];
  }

  async userByEmail(email: string): Promise<UserRow | undefined> {
    return (await this.db.query<UserRow>(`SELECT * FROM rm_users WHERE lower(email) = lower($1)`, [email])).rows[0];
  }

  async organization(id: string): Promise<OrganizationRow | undefined> {
    return (await this.db.query<OrganizationRow>(`SELECT * FROM rm_organizations WHERE id = $1`, [id])).rows[0];
  }

  async organizationByHostname(hostname: string): Promise<OrganizationRow | undefined> {
    return (await this.db.query<OrganizationRow>(`SELECT * FROM rm_organizations WHERE hostname = $1`, [hostname])).rows[0];
  }

  async organizationByCustomHostname(customHostname: string): Promise<OrganizationRow | undefined> {
    return (await this.db.query<OrganizationRow>(`SELECT * FROM rm_organizations WHERE custom_hostname = $1`, [customHostname])).rows[0];
  }

  async memberRole(organizationId: string, userId: string): Promise<Role | undefined> {
    const r = await this.db.query<{ role: Role }>(
      `SELECT role FROM rm_organization_members WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    return r.rows[0]?.role;
  }

  async member(organizationId: string, userId: string): Promise<MemberRow | undefined> {
    const r = await this.db.query<any>(
      `SELECT m.*, row_to_json(u) AS "user" FROM rm_organization_members m JOIN rm_users u ON u.id = m.user_id
        WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    return r.rows[0] ? { ...r.rows[0], user: { ...r.rows[0].user, created_at: new Date(r.rows[0].user.created_at) } } : undefined;
  }

  async members(organizationId: string, opts: { page?: string; limit: number; role?: Role }): Promise<ListResponse<MemberRow>> {
    const after = decodeCursor(opts.page, idCursor);
    const r = await this.db.query<any>(
      `SELECT m.*, row_to_json(u) AS "user" FROM rm_organization_members m JOIN rm_users u ON u.id = m.user_id
        WHERE m.organization_id = $1 AND ($2::text IS NULL OR m.user_id > $2) AND ($3::text IS NULL OR m.role = $3)
        ORDER BY m.user_id LIMIT $4`,
      [organizationId, (after?.[0] as string) ?? null, opts.role ?? null, opts.limit + 1],
    );
    const count = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rm_organization_members WHERE organization_id = $1 AND ($2::text IS NULL OR role = $2)`,
      [organizationId, opts.role ?? null],
    );
    return toPage(r.rows, opts.limit, (x) => x as MemberRow, (x) => [x.user_id], count.rows[0].n);
  }

  async organizationsOf(userId: string): Promise<OrganizationRow[]> {
    const r = await this.db.query<OrganizationRow>(
      `SELECT o.* FROM rm_organizations o JOIN rm_organization_members m ON m.organization_id = o.id WHERE m.user_id = $1 ORDER BY o.id`,
      [userId],
    );
    return r.rows;
  }
}
