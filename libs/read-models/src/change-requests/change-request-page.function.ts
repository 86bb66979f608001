/**
 * The read path of a change request's page (GET .../change-requests/{id}/content/page|path) in
 * one round trip: the caller's access facts on the space (quire_space_access), the change
 * request's head, and the page with only the body asked for. PL/pgSQL, like the access
 * functions, so PostgreSQL keeps the plans per connection; each lookup has its own statement so
 * each uses its index (id or per-space number; path or page id). Tables are named unqualified,
 * so it always reads the live read models. Created with the change-requests read model; bump
 * its version when this changes.
 */
export const CHANGE_REQUEST_PAGE_FUNCTION = `
CREATE OR REPLACE FUNCTION quire_change_request_page(
  p_space text, p_user text, p_change_request text, p_number int, p_path text, p_page text, p_content text)
RETURNS TABLE (space_deleted_at text, organization_role text, resolved_level text, granted_role text,
               change_request_id text, revision text, page_id text, kind text, node jsonb, markdown text, document jsonb)
LANGUAGE plpgsql STABLE AS $quire$
#variable_conflict use_column
DECLARE
  v_id text;
  v_revision text;
BEGIN
  IF p_number IS NULL THEN
    SELECT c.id, c.revision INTO v_id, v_revision FROM rm_change_requests c WHERE c.id = p_change_request AND c.space_id = p_space;
  ELSE
    SELECT c.id, c.revision INTO v_id, v_revision FROM rm_change_requests c WHERE c.space_id = p_space AND c.number = p_number;
  END IF;
  IF p_page IS NULL THEN
    RETURN QUERY
    SELECT a.space->>'deleted_at', a.organization_role, a.resolved_level, a.granted_role, v_id, v_revision, pg.page_id, pg.kind, pg.node, pg.markdown, pg.document
      FROM quire_space_access(p_space, p_user) a
      LEFT JOIN LATERAL (
        SELECT p.page_id, p.kind, p.node,
               CASE WHEN p_content IN ('markdown', 'document') THEN c.markdown END AS markdown,
               NULL::jsonb AS document
          FROM rm_revision_pages p LEFT JOIN rm_page_contents c ON c.blob = p.blob
         WHERE p.space_id = p_space AND p.revision_id = v_revision AND p.path = p_path
         ORDER BY (p.kind = 'group') LIMIT 1) pg ON true;
  ELSE
    RETURN QUERY
    SELECT a.space->>'deleted_at', a.organization_role, a.resolved_level, a.granted_role, v_id, v_revision, pg.page_id, pg.kind, pg.node, pg.markdown, pg.document
      FROM quire_space_access(p_space, p_user) a
      LEFT JOIN LATERAL (
        SELECT p.page_id, p.kind, p.node,
               CASE WHEN p_content IN ('markdown', 'document') THEN c.markdown END AS markdown,
               NULL::jsonb AS document
          FROM rm_revision_pages p LEFT JOIN rm_page_contents c ON c.blob = p.blob
         WHERE p.space_id = p_space AND p.revision_id = v_revision AND p.page_id = p_page) pg ON true;
  END IF;
END
$quire$;
`;
