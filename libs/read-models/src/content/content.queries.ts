import { Queryable } from '@quire/platform/db/db';
import { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { parseBlobMarkdown } from '@quire/content/markdown';

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

  /** Whether the content read model holds this revision yet (its pages and contents come with it). */
  async hasRevision(spaceId: string, revisionId: string): Promise<boolean> {
    return (await this.db.query(`SELECT 1 FROM rm_revisions WHERE space_id = $1 AND id = $2`, [spaceId, revisionId])).rows.length > 0;
  }

  async revision(spaceId: string, revisionId: string): Promise<RevisionRow | undefined> {
    return (await this.db.query<RevisionRow>(`SELECT * FROM rm_revisions WHERE space_id = $1 AND id = $2`, [spaceId, revisionId])).rows[0];
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
