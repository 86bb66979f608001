import { ROLE_RANKS_SQL } from './access.sql';

/**
 * Read-side stored queries for the hottest path (every request on a space or collection):
 * the row plus the caller's access facts. They are PL/pgSQL so that PostgreSQL keeps their plans
 * per connection: planning the equivalent five-table statement cost more than running it
 * (measured 0.45 ms planning vs 0.2 ms execution; ~3x the throughput as a function).
 * They return the row as jsonb so that a column added to rm_spaces or rm_collections needs no
 * change here, and they name tables unqualified so they always read the live read models.
 * Created with the permissions read model; bump its version when they change (and drop a function
 * whose result columns change: CREATE OR REPLACE cannot change them).
 */
export const ACCESS_FUNCTIONS = `
DROP FUNCTION IF EXISTS quire_space_access(text, text);
CREATE FUNCTION quire_space_access(p_space text, p_user text)
RETURNS TABLE (space jsonb, organization_hostname text, organization_custom_hostname text, organization_role text, resolved_level text, granted_role text)
LANGUAGE plpgsql STABLE AS $quire$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT to_jsonb(s),
         o.hostname,
         o.custom_hostname,
         (SELECT m.role FROM rm_organization_members m WHERE m.organization_id = s.organization_id AND m.user_id = p_user),
         n.resolved_level,
         (SELECT g.role FROM rm_permission_grants g WHERE g.resource_id = ANY(n.chain) AND g.user_id = p_user
           ORDER BY array_position(${ROLE_RANKS_SQL}, g.role) DESC LIMIT 1)
    FROM rm_spaces s JOIN rm_access_nodes n ON n.id = s.id
    LEFT JOIN rm_organizations o ON o.id = s.organization_id
   WHERE s.id = p_space;
END
$quire$;

CREATE OR REPLACE FUNCTION quire_collection_access(p_collection text, p_user text)
RETURNS TABLE (collection jsonb, organization_role text, resolved_level text, granted_role text)
LANGUAGE plpgsql STABLE AS $quire$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT to_jsonb(c),
         (SELECT m.role FROM rm_organization_members m WHERE m.organization_id = c.organization_id AND m.user_id = p_user),
         n.resolved_level,
         (SELECT g.role FROM rm_permission_grants g WHERE g.resource_id = ANY(n.chain) AND g.user_id = p_user
           ORDER BY array_position(${ROLE_RANKS_SQL}, g.role) DESC LIMIT 1)
    FROM rm_collections c JOIN rm_access_nodes n ON n.id = c.id
   WHERE c.id = p_collection;
END
$quire$;
`;
