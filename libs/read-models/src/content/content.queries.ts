import { Queryable } from '@quire/platform/db/db';
import { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { parseBlobMarkdown, refTargets, RefTargets } from '@quire/content/markdown';

export interface RevisionRow {
  space_id: string;
  id: string;
  change_request_id: string | null;
  parents: string[];
  kind: string;
  git: { oid: string; message: string; url?: string; ref?: string } | null;
  merged_from: string | null;
  created_at: Date;
  pages: RevisionPageNode[];
  files: RevisionFileNode[];
}

/** A revision without its tree: what it is and where it comes from. */
export type RevisionHeaderRow = Omit<RevisionRow, 'pages' | 'files'>;

export interface PageRow {
  page_id: string;
  parent_id: string | null;
  kind: 'sheet' | 'group' | 'link';
  path: string;
  /** The page with its subtree. */
  node: RevisionPageNode;
  markdown: string | null;
  document: unknown | null;
}

/** A live page of a space with the caller's access facts (see space-page.function.ts). */
export interface SpacePageRow {
  space_deleted_at: string | null;
  organization_role: string | null;
  resolved_level: string | null;
  granted_role: string | null;
  revision: string | null;
  page_id: string | null;
  kind: 'sheet' | 'group' | 'link' | null;
  node: RevisionPageNode | null;
  markdown: string | null;
  document: unknown | null;
}

/** A page of any revision of a space with the caller's access facts; `revision` is null when the space has no such revision. */
export type RevisionPageRow = SpacePageRow;

/** Which body a page read wants. */
export type PageContent = 'markdown' | 'document' | 'none';

/**
 * Fills `document` when a read asks for it: parsed from the page's markdown, once per blob while
 * it stays in memory (a blob id names its bytes, so the parse never goes stale).
 */
export function withDocument<R extends { node: RevisionPageNode | null; markdown: string | null; document: unknown | null }>(
  row: R | undefined,
  content: PageContent,
): R | undefined {
  if (row && content === 'document' && row.markdown !== null && row.node?.blob) row.document = parseBlobMarkdown(row.node.blob, row.markdown).document;
  return row;
}

/** Ref targets of this many revisions kept (the newest loaded). */
const REF_TARGETS_REVISIONS = 256;

export class ContentQueries {
  /** Per revision (immutable, so never stale): what its pages' references resolve to. */
  private readonly targets = new Map<string, Promise<RefTargets | undefined>>();

  constructor(private readonly db: Queryable) {}

  /**
   * The pages (by repository path) and files of a revision that its pages' references can name,
   * loaded once per revision; undefined while the content read model does not hold it.
   */
  refTargets(spaceId: string, revisionId: string): Promise<RefTargets | undefined> {
    const key = `${spaceId}:${revisionId}`;
    const hit = this.targets.get(key);
    if (hit) return hit;
    const loading = this.loadRefTargets(spaceId, revisionId).then(
      (found) => {
        if (!found) this.targets.delete(key);
        return found;
      },
      (err) => {
        this.targets.delete(key);
        throw err;
      },
    );
    this.targets.set(key, loading);
    if (this.targets.size > REF_TARGETS_REVISIONS) this.targets.delete(this.targets.keys().next().value!);
    return loading;
  }

  private async loadRefTargets(spaceId: string, revisionId: string): Promise<RefTargets | undefined> {
    const r = await this.db.query<{ files: { id: string; file: string }[]; pages: [string, string | null][] }>(
      `SELECT r.files,
              (SELECT coalesce(jsonb_agg(jsonb_build_array(p.page_id, p.file)), '[]'::jsonb)
                 FROM rm_revision_pages p WHERE p.space_id = r.space_id AND p.revision_id = r.id) AS pages
         FROM rm_revisions r WHERE r.space_id = $1 AND r.id = $2`,
      [spaceId, revisionId],
    );
    const row = r.rows[0];
    if (!row) return undefined;
    return refTargets(
      row.pages.map(([id, file]) => ({ id, file })),
      row.files,
    );
  }

  /** Whether the content read model holds this revision yet (its pages and contents come with it). */
  async hasRevision(spaceId: string, revisionId: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM rm_revisions WHERE space_id = $1 AND id = $2`, [spaceId, revisionId])).rows.length > 0;
  }

  /** The revision's row without its page tree and files (cheap: they are the bulk of it). */
  async revisionHeader(spaceId: string, revisionId: string): Promise<RevisionHeaderRow | undefined> {
    return (
      await this.db.query<RevisionHeaderRow>(
        `SELECT space_id, id, change_request_id, parents, kind, git, merged_from, created_at FROM rm_revisions WHERE space_id = $1 AND id = $2`,
        [spaceId, revisionId],
      )
    ).rows[0];
  }

  async revision(spaceId: string, revisionId: string): Promise<RevisionRow | undefined> {
    return (await this.db.query<RevisionRow>(`SELECT * FROM rm_revisions WHERE space_id = $1 AND id = $2`, [spaceId, revisionId])).rows[0];
  }

  /**
   * A file of the space by id, as `revisionId` has it, or else as the newest revision of the
   * space that holds it (a change request's file, or one since deleted: a file id names one file).
   */
  async file(spaceId: string, fileId: string, revisionId: string): Promise<RevisionFileNode | undefined> {
    const r = await this.db.query<{ file: RevisionFileNode }>(
      `SELECT f AS file FROM rm_revisions r, jsonb_array_elements(r.files) f
        WHERE r.space_id = $1 AND f->>'id' = $2
        ORDER BY (r.id = $3) DESC, r.created_at DESC LIMIT 1`,
      [spaceId, fileId, revisionId],
    );
    return r.rows[0]?.file;
  }

  /** A file exactly as one revision has it (undefined when that revision has no such file). */
  async revisionFile(spaceId: string, revisionId: string, fileId: string): Promise<RevisionFileNode | undefined> {
    const r = await this.db.query<{ file: RevisionFileNode }>(
      `SELECT f AS file FROM rm_revisions r, jsonb_array_elements(r.files) f WHERE r.space_id = $1 AND r.id = $2 AND f->>'id' = $3`,
      [spaceId, revisionId, fileId],
    );
    return r.rows[0]?.file;
  }

  /** One query: the page with its subtree and, when asked, its content as markdown or document. */
  async page(spaceId: string, revisionId: string, by: { id: string } | { path: string }, content: PageContent): Promise<PageRow | undefined> {
    const where = 'id' in by ? 'p.page_id = $3' : 'p.path = $3';
    const withContent = content !== 'none';
    const r = await this.db.query<PageRow>(
      `SELECT p.page_id, p.parent_id, p.kind, p.path, p.node,
              ${withContent ? 'c.markdown' : 'NULL AS markdown'}, NULL AS document
         FROM rm_revision_pages p ${withContent ? 'LEFT JOIN rm_page_contents c ON c.blob = p.blob' : ''}
        WHERE p.space_id = $1 AND p.revision_id = $2 AND ${where}
        ORDER BY (p.kind = 'group') LIMIT 1`,
      [spaceId, revisionId, 'id' in by ? by.id : by.path],
    );
    return withDocument(r.rows[0], content);
  }

  /**
   * A page of any revision of the space in one statement, as livePage reads the live one: the
   * caller's access facts, whether the space has that revision (`revision` null when not: a
   * revision of another space is simply not found), and the page with only the body asked for.
   */
  async revisionPage(spaceId: string, userId: string, revisionId: string, by: { id: string } | { path: string }, content: PageContent): Promise<RevisionPageRow | undefined> {
    const r = await this.db.query<RevisionPageRow>(
      `SELECT a.space->>'deleted_at' AS space_deleted_at, a.organization_role, a.resolved_level, a.granted_role,
              (SELECT r.id FROM rm_revisions r WHERE r.space_id = $1 AND r.id = $3) AS revision,
              pg.page_id, pg.kind, pg.node, pg.markdown, NULL::jsonb AS document
         FROM quire_space_access($1, $2) a
         LEFT JOIN LATERAL (
           SELECT p.page_id, p.kind, p.node, CASE WHEN $5 IN ('markdown', 'document') THEN c.markdown END AS markdown
             FROM rm_revision_pages p LEFT JOIN rm_page_contents c ON c.blob = p.blob
            WHERE p.space_id = $1 AND p.revision_id = $3 AND ${'id' in by ? 'p.page_id = $4' : 'p.path = $4'}
            ORDER BY (p.kind = 'group') LIMIT 1) pg ON true`,
      [spaceId, userId, revisionId, 'id' in by ? by.id : by.path, content],
    );
    return withDocument(r.rows[0], content);
  }

  /**
   * Where a page body (a document id: the blob of its markdown) is in the space: in the live
   * revision when it is there (the cheap lookup), else in the newest revision that has it.
   */
  async documentPage(spaceId: string, liveRevision: string, blob: string): Promise<{ revision_id: string; file: string; markdown: string } | undefined> {
    const select = `SELECT p.revision_id, p.file, c.markdown FROM rm_revision_pages p JOIN rm_page_contents c ON c.blob = p.blob`;
    const live = await this.db.query<{ revision_id: string; file: string; markdown: string }>(
      `${select} WHERE p.space_id = $1 AND p.revision_id = $2 AND p.blob = $3 LIMIT 1`,
      [spaceId, liveRevision, blob],
    );
    if (live.rows[0]) return live.rows[0];
    const past = await this.db.query<{ revision_id: string; file: string; markdown: string }>(
      `${select} JOIN rm_revisions r ON r.space_id = p.space_id AND r.id = p.revision_id
        WHERE p.space_id = $1 AND p.blob = $2 ORDER BY r.created_at DESC LIMIT 1`,
      [spaceId, blob],
    );
    return past.rows[0];
  }

  /** The read path of a space's live page in one statement (access facts + page + body). */
  async livePage(spaceId: string, userId: string, by: { id: string } | { path: string }, content: PageContent): Promise<SpacePageRow | undefined> {
    const r = await this.db.query<SpacePageRow>(`SELECT * FROM quire_space_page($1, $2, $3, $4, $5)`, [
      spaceId,
      userId,
      'path' in by ? by.path : null,
      'id' in by ? by.id : null,
      content,
    ]);
    return withDocument(r.rows[0], content);
  }
}
