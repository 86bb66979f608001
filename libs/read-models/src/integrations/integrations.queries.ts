import type { IntegrationCategory, IntegrationScope, IntegrationTarget, Role } from '@quire/domain';
import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, idCursor, ListResponse, toPage } from '@quire/platform/http/pagination';
import type { OrganizationRow } from '../identity/identity.queries';

export interface IntegrationRow {
  name: string;
  organization_id: string;
  version: number;
  runtime: 'v1' | 'v2';
  title: string;
  description: string;
  summary: string | null;
  visibility: 'public' | 'private' | 'unlisted';
  target: IntegrationTarget;
  scopes: IntegrationScope[];
  categories: IntegrationCategory[];
  blocks: unknown[] | null;
  content_sources: unknown[] | null;
  external_links: Array<{ url: string; label: string }>;
  configurations: Record<string, unknown> | null;
  content_security_policy: string | Record<string, string> | null;
  icon: { sha256: string; contentType: string } | null;
  preview_images: Array<{ sha256: string; contentType: string }>;
  has_secrets: boolean;
  created_at: Date;
  updated_at: Date;
  /** The owning organization, and the caller's role in it (null when not a member). */
  owner: OrganizationRow;
  caller_role: Role | null;
}

export interface IntegrationViewer {
  userId: string;
  instanceAdmin: boolean;
}

export interface IntegrationFilters {
  search?: string;
  category?: IntegrationCategory;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  /** Owning organization id. */
  owner?: string;
  scope?: IntegrationScope;
  target?: IntegrationTarget;
  page?: string;
  limit: number;
}

const SELECT = `
  SELECT i.*, row_to_json(o) AS owner, m.role AS caller_role,
         (i.visibility <> 'private' OR $2::boolean OR m.role IS NOT NULL) AS readable,
         (i.visibility = 'public' OR $2::boolean OR m.role IS NOT NULL) AS listed
    FROM rm_integrations i
    JOIN rm_organizations o ON o.id = i.organization_id
    LEFT JOIN rm_organization_members m ON m.organization_id = i.organization_id AND m.user_id = $1`;

export class IntegrationQueries {
  constructor(private readonly db: Queryable) {}

  /**
   * An integration the viewer may read: public and unlisted ones for everyone, private ones
   * for members of the owning organization (and the instance administrator).
   */
  async readable(name: string, viewer: IntegrationViewer): Promise<IntegrationRow | undefined> {
    const r = await this.db.query<IntegrationRow & { readable: boolean }>(`${SELECT} WHERE i.name = $3`, [viewer.userId, viewer.instanceAdmin, name]);
    const row = r.rows[0];
    return row?.readable ? withDates(row) : undefined;
  }

  /** The owner of a published integration, whoever asks (for permission checks). */
  async ownerOf(name: string): Promise<string | undefined> {
    return (await this.db.query<{ organization_id: string }>(`SELECT organization_id FROM rm_integrations WHERE name = $1`, [name])).rows[0]?.organization_id;
  }

  /**
   * The marketplace: public integrations, plus every integration of the organizations the
   * viewer belongs to (all of them for the instance administrator); by name.
   */
  async list(viewer: IntegrationViewer, f: IntegrationFilters): Promise<ListResponse<IntegrationRow>> {
    const after = decodeCursor(f.page, idCursor)?.[0] as string | undefined;
    const r = await this.db.query<IntegrationRow & { listed: boolean }>(
      `SELECT * FROM (${SELECT}) x
        WHERE listed
          AND ($3::text IS NULL OR name > $3)
          AND ($4::text IS NULL OR strpos(lower(name), lower($4)) > 0 OR strpos(lower(title), lower($4)) > 0)
          AND ($5::text IS NULL OR categories ? $5)
          AND ($6::text IS NULL OR EXISTS (SELECT 1 FROM unnest(block_domains) h WHERE h = lower($6) OR h LIKE '%.' || lower($6)))
          AND ($7::boolean IS NULL OR (coalesce(jsonb_array_length(blocks), 0) > 0) = $7)
          AND ($8::boolean IS NULL OR (coalesce(jsonb_array_length(content_sources), 0) > 0) = $8)
          AND ($9::text IS NULL OR organization_id = $9)
          AND ($10::text IS NULL OR scopes ? $10)
          AND ($11::text IS NULL OR target = $11 OR ($11 <> 'all' AND target = 'all'))
        ORDER BY name
        LIMIT $12`,
      [
        viewer.userId, viewer.instanceAdmin, after ?? null, f.search ?? null, f.category ?? null, f.blockDomain ?? null,
        f.blocks ?? null, f.contentSources ?? null, f.owner ?? null, f.scope ?? null, f.target ?? null, f.limit + 1,
      ],
    );
    return toPage(r.rows.map(withDates), f.limit, (row) => row, (row) => [row.name]);
  }

  async asset(name: string, sha256: string): Promise<{ content_type: string; bytes: Buffer } | undefined> {
    const r = await this.db.query<{ content_type: string; bytes: Buffer }>(
      `SELECT content_type, bytes FROM rm_integration_assets WHERE integration_name = $1 AND sha256 = $2`,
      [name, sha256],
    );
    return r.rows[0];
  }
}

function withDates<T extends IntegrationRow>(row: T): T {
  return { ...row, owner: { ...row.owner, created_at: new Date(row.owner.created_at) } };
}
