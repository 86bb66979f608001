/**
 * The hot read path of a space's live page (GET /v1/spaces/{id}/content/page|path) in one
 * round trip: the caller's access facts (quire_space_access) and the page of the space's live
 * revision with only the body asked for. PL/pgSQL so PostgreSQL keeps the plans per connection;
 * each lookup has its own statement so each uses its index. Tables are unqualified: it reads
 * the live read models. Created with the content read model; bump its version when this changes.
 * `document` is always NULL (kept so the signature stays): a document is parsed from the markdown
 * by the caller (ContentQueries).
 */
export const SPACE_PAGE_FUNCTION = `
CREATE OR REPLACE FUNCTION quire_space_page(p_space text, p_user text, p_path text, p_page text, p_content text)
RETURNS TABLE (space_deleted_at text, organization_role text, resolved_level text, granted_role text,
               revision text, page_id text, kind text, node jsonb, markdown text, document jsonb)
LANGUAGE plpgsql STABLE AS $quire$
#variable_conflict use_column
BEGIN
  IF p_page IS NULL THEN
    RETURN QUERY
    SELECT a.space->>'deleted_at', a.organization_role, a.resolved_level, a.granted_role, a.space->>'revision',
           pg.page_id, pg.kind, pg.node, pg.markdown, pg.document
      FROM quire_space_access(p_space, p_user) a
      LEFT JOIN LATERAL (
        SELECT p.page_id, p.kind, p.node,
               CASE WHEN p_content IN ('markdown', 'document') THEN c.markdown END AS markdown,
               NULL::jsonb AS document
          FROM rm_revision_pages p LEFT JOIN rm_page_contents c ON c.blob = p.blob
         WHERE p.space_id = p_space AND p.revision_id = a.space->>'revision' AND p.path = p_path
         ORDER BY (p.kind = 'group') LIMIT 1) pg ON true;
  ELSE
    RETURN QUERY
    SELECT a.space->>'deleted_at', a.organization_role, a.resolved_level, a.granted_role, a.space->>'revision',
           pg.page_id, pg.kind, pg.node, pg.markdown, pg.document
      FROM quire_space_access(p_space, p_user) a
      LEFT JOIN LATERAL (
        SELECT p.page_id, p.kind, p.node,
               CASE WHEN p_content IN ('markdown', 'document') THEN c.markdown END AS markdown,
               NULL::jsonb AS document
          FROM rm_revision_pages p LEFT JOIN rm_page_contents c ON c.blob = p.blob
         WHERE p.space_id = p_space AND p.revision_id = a.space->>'revision' AND p.page_id = p_page) pg ON true;
  END IF;
END
$quire$;
`;
