/**
 * Events and stream versions. `transaction_id` orders events by appending transaction so that
 * readers can stop at the oldest transaction still in flight (quire_read_horizon): a sequence
 * number alone is handed out before commit, and a reader following it would skip an event
 * whose transaction commits after a later one.
 */
export const EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS quire_streams (
  stream_id text PRIMARY KEY,
  version bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS quire_events (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  schema_version int NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_version)
);
CREATE INDEX IF NOT EXISTS quire_events_global_order ON quire_events (transaction_id, global_position);

-- Where $all readers stop: before the oldest transaction still in flight that could append here.
-- pg_snapshot_xmin alone is the oldest in the whole cluster, so one long transaction in ANY
-- database of the server (a report, a migration, another installation's rebuild) held back every
-- installation's readers until it ended. A transaction never changes database, so one that
-- pg_stat_activity shows running in another database cannot hold our events and is passed over.
-- Anything not known to be elsewhere still holds readers back: this database's transactions,
-- ones that ended after our snapshot, prepared ones, backends whose database is hidden. The
-- activity lookup (a copy of every backend's status) is taken only when committed events already
-- wait beyond the cluster-wide horizon, which is the case it helps (about 1 ms against 0.1 ms).
-- STABLE: it sees the calling statement's snapshot, the one the reader's rows come from.
-- PL/pgSQL keeps its plans for the session (a SQL function was planned again at every call).
CREATE OR REPLACE FUNCTION quire_read_horizon() RETURNS xid8 LANGUAGE plpgsql STABLE AS $$
DECLARE
  s pg_snapshot := pg_current_snapshot();
BEGIN
  IF NOT EXISTS (SELECT 1 FROM quire_events WHERE transaction_id >= pg_snapshot_xmin(s)) THEN
    RETURN pg_snapshot_xmin(s);
  END IF;
  RETURN (
    SELECT coalesce(min(x), pg_snapshot_xmax(s))
      FROM pg_snapshot_xip(s) AS x
     WHERE x::xid NOT IN (
       SELECT a.backend_xid FROM pg_stat_get_activity(NULL) AS a
        WHERE a.backend_xid IS NOT NULL
          AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())));
END;
$$;

-- One round trip per append: check the expected version, bump it, insert the events.
-- p_expected: NULL = any, 0 = the stream must not exist, n = the stream is at version n.
-- p_events: a JSON array of {id, type, schemaVersion, data, metadata}, in stream order. One
-- jsonb parameter: the client serialises the batch once, the server parses it once and walks
-- it in order (indexing jsonb[] parameters by position walked the arrays again for every row).
CREATE OR REPLACE FUNCTION quire_append(p_stream text, p_expected bigint, p_events jsonb)
RETURNS TABLE (out_conflict boolean, out_version bigint, out_tx text, out_last_position bigint) LANGUAGE plpgsql AS $$
DECLARE
  n int := jsonb_array_length(p_events);
  v_new bigint;
  v_actual bigint;
  v_last bigint;
BEGIN
  IF p_expected IS NULL OR p_expected = 0 THEN
    INSERT INTO quire_streams AS s (stream_id, version) VALUES (p_stream, n)
    ON CONFLICT (stream_id) DO UPDATE SET version = s.version + n WHERE p_expected IS NULL
    RETURNING s.version INTO v_new;
  ELSE
    UPDATE quire_streams SET version = version + n WHERE stream_id = p_stream AND quire_streams.version = p_expected
    RETURNING quire_streams.version INTO v_new;
  END IF;
  IF v_new IS NULL THEN
    SELECT s.version INTO v_actual FROM quire_streams s WHERE s.stream_id = p_stream;
    RETURN QUERY SELECT true, coalesce(v_actual, 0::bigint), NULL::text, NULL::bigint;
    RETURN;
  END IF;
  -- Positions are drawn in stream order (the ORDER BY runs before the column defaults).
  WITH inserted AS (
    INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
    SELECT p_stream, v_new - n + e.i, (e.event->>'id')::uuid, e.event->>'type', (e.event->>'schemaVersion')::int, e.event->'data', e.event->'metadata'
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(event, i) ORDER BY e.i
    RETURNING global_position
  )
  SELECT max(global_position) INTO v_last FROM inserted;
  RETURN QUERY SELECT false, v_new, pg_current_xact_id()::text, v_last;
END;
$$;

-- The previous signature (seven arrays), kept for processes of the previous version while an
-- installation is upgraded one process at a time: their appends go through the function above,
-- with the same checks, instead of failing until they are replaced.
CREATE OR REPLACE FUNCTION quire_append(
  p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_versions int[], p_data jsonb[], p_meta jsonb[]
) RETURNS TABLE (out_conflict boolean, out_version bigint, out_tx text, out_last_position bigint) LANGUAGE sql AS $$
  SELECT * FROM quire_append(p_stream, p_expected, (
    SELECT coalesce(jsonb_agg(jsonb_build_object('id', p_ids[i], 'type', p_types[i], 'schemaVersion', p_versions[i], 'data', p_data[i], 'metadata', p_meta[i]) ORDER BY i), '[]'::jsonb)
      FROM generate_subscripts(p_ids, 1) AS i
  ))
$$;
`;
