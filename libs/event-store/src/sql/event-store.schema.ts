/**
 * Events and stream versions. `transaction_id` orders events by appending transaction so that
 * readers can stop at the oldest transaction still in flight (pg_snapshot_xmin): a sequence
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

-- One round trip per append: check the expected version, bump it, insert the events.
-- p_expected: NULL = any, 0 = the stream must not exist, n = the stream is at version n.
CREATE OR REPLACE FUNCTION quire_append(
  p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_versions int[], p_data jsonb[], p_meta jsonb[]
) RETURNS TABLE (out_conflict boolean, out_version bigint, out_tx text, out_last_position bigint) LANGUAGE plpgsql AS $$
DECLARE
  n int := array_length(p_ids, 1);
  v_new bigint;
  v_actual bigint;
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
  INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
  SELECT p_stream, v_new - n + i, p_ids[i], p_types[i], p_versions[i], p_data[i], p_meta[i]
  FROM generate_subscripts(p_ids, 1) AS i;
  RETURN QUERY SELECT false, v_new, pg_current_xact_id()::text, currval(pg_get_serial_sequence('quire_events', 'global_position'));
END;
$$;
`;
