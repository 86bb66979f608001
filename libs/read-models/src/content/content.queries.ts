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

/** A page of a revision with its markdown (see ContentQueries.revisionPage). */
export interface RevisionPage {
  page_id: string;
  kind: 'sheet' | 'group' | 'link';
  node: RevisionPageNode;
  markdown: string | null;
}

export interface RevisionPageLookup {
  revision: string | null;
  page: RevisionPage | null;
}

/** Where a document id (a page body's blob) is found: the revision, the page's file, its markdown. */
export interface DocumentPageRow {
  revision_id: string;
  file: string;
  markdown: string;
}

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

export class ContentQueries {
  constructor(private readonly db: Queryable) {}

  /**
   * The pages (by repository path) and files of a revision that its pages' references can name;
   * undefined while the content read model does not hold it. One query for the whole revision:
   * callers keep the answer (it never changes for a revision).
   */
  async refTargets(spaceId: string, revisionId: string): Promise<RefTargets | undefined> {
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
   * A page of a revision of the space with its markdown, in one statement: `revision` is null when
   * the space has no such revision (a revision of another space is simply not found, and one the
   * content read model has not taken in yet is not either), `page` null when the revision has no
   * such page. Both answers are final once the revision is there: a revision never changes.
   */
  async revisionPage(spaceId: string, revisionId: string, by: { id: string } | { path: string }): Promise<RevisionPageLookup> {
    const r = await this.db.query<{ revision: string | null } & RevisionPage>(
      `SELECT (SELECT r.id FROM rm_revisions r WHERE r.space_id = $1 AND r.id = $2) AS revision,
              pg.page_id, pg.kind, pg.node, pg.markdown
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (
           SELECT p.page_id, p.kind, p.node, c.markdown
             FROM rm_revision_pages p LEFT JOIN rm_page_contents c ON c.blob = p.blob
            WHERE p.space_id = $1 AND p.revision_id = $2 AND ${'id' in by ? 'p.page_id = $3' : 'p.path = $3'}
            ORDER BY (p.kind = 'group') LIMIT 1) pg ON true`,
      [spaceId, revisionId, 'id' in by ? by.id : by.path],
    );
    const { revision, ...page } = r.rows[0];
    return { revision, page: page.page_id ? page : null };
  }

  /**
   * Where a page body (a document id: the blob of its markdown) is in the space: in `revisionId`
   * when given (what it holds never changes), else in the newest revision that has it.
   */
  async documentPage(spaceId: string, blob: string, revisionId?: string): Promise<DocumentPageRow | undefined> {
    const select = `SELECT p.revision_id, p.file, c.markdown FROM rm_revision_pages p JOIN rm_page_contents c ON c.blob = p.blob`;
    const r = revisionId
      ? await this.db.query<DocumentPageRow>(`${select} WHERE p.space_id = $1 AND p.revision_id = $2 AND p.blob = $3 LIMIT 1`, [spaceId, revisionId, blob])
      : await this.db.query<DocumentPageRow>(
          `${select} JOIN rm_revisions r ON r.space_id = p.space_id AND r.id = p.revision_id
            WHERE p.space_id = $1 AND p.blob = $2 ORDER BY r.created_at DESC LIMIT 1`,
          [spaceId, blob],
        );
    return r.rows[0];
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
