/**
 * One append: checks the expected version and inserts the events, in one statement (a prepared
 * one on PostgreSQL, so it is planned once per connection). $1 stream, $2 expected version
 * (NULL = any, 0 = the stream must not exist, n = the stream is at version n), $3 a JSON array
 * of [id, type, schemaVersion, data, metadata] in stream order: the client serialises the batch
 * once, the server parses it once and walks it in order. Arrays rather than objects: no key to
 * parse and look up five times per event (a 100-event append cost the server 72,000 instructions
 * per event instead of 83,000, callgrind on single-user PostgreSQL 15). A single event goes through
 * APPEND_ONE_SQL instead, the same check and insert with the event's fields as parameters.
 *
 * A stream's version is its last event's: the UNIQUE (stream_id, stream_version) index is the
 * optimistic-concurrency check. A writer that read the same version as another one inserts the
 * same stream_version and gets a unique violation (after waiting for the other's commit) instead
 * of a duplicate; a stale expected version inserts nothing, and `version` says where the stream
 * is. No per-stream row is updated and locked besides the events (a second write, WAL record and
 * row lock per append, and the commits of one stream queued on that row).
 * Positions are drawn in stream order (the ORDER BY runs before the column defaults).
 * `tx` is NULL when nothing was inserted: the statement then took no transaction id.
 * Both databases prepare it once (named `quire_append`: PgliteDb prepares named statements too).
 */
export const APPEND_SQL = `
WITH head AS (
  SELECT coalesce(max(stream_version), 0) AS version FROM quire_events WHERE stream_id = $1
), appended AS (
  INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
  SELECT $1, head.version + e.i, (e.event->>0)::uuid, e.event->>1, (e.event->>2)::int, e.event->3, e.event->4
    FROM head, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(event, i)
   WHERE $2::bigint IS NULL OR head.version = $2::bigint
   ORDER BY e.i
  RETURNING global_position
)
SELECT (SELECT version FROM head) AS version, count(*)::int AS appended,
       max(global_position)::text AS last_position, pg_current_xact_id_if_assigned()::text AS tx
  FROM appended`;

/**
 * APPEND_SQL for one event, the most common append (a command's decision), with the event's
 * fields as parameters: $1 stream, $2 expected version (as in APPEND_SQL), $3 id, $4 type,
 * $5 schema version, $6 data, $7 metadata (JSON). Without the JSON batch to parse and walk, the
 * CTE and the aggregate, a single-event append cost the server 239,000 instructions instead of
 * 306,000 (callgrind, single-user PostgreSQL 15). It returns the inserted event's row, or no
 * row when the expected version is stale (the caller then reads where the stream is).
 */
export const APPEND_ONE_SQL = `
INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
SELECT $1, head.version + 1, $3::uuid, $4, $5::int, $6::jsonb, $7::jsonb
  FROM (SELECT coalesce(max(stream_version), 0) AS version FROM quire_events WHERE stream_id = $1) AS head
 WHERE $2::bigint IS NULL OR head.version = $2::bigint
RETURNING stream_version AS version, global_position::text AS last_position, transaction_id::text AS tx`;

/**
 * Events. `transaction_id` orders events by appending transaction so that readers can stop at
 * the oldest transaction still in flight (quire_read_horizon): a sequence number alone is handed
 * out before commit, and a reader following it would skip an event whose transaction commits
 * after a later one. An event's position, (transaction_id, global_position), is the primary key:
 * the index `$all` readers follow. Every event pays one index entry per index (about 8,000
 * instructions each), and these three back a guarantee each: the position, the expected version
 * (stream_id, stream_version) and idempotent event ids.
 */
export const EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS quire_events (
  global_position bigserial,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  stream_version bigint NOT NULL,
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  schema_version int NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (transaction_id, global_position),
  UNIQUE (stream_id, stream_version)
);

-- Installations of the previous versions had a primary key on global_position alone beside a
-- (transaction_id, global_position) index for readers: a fourth index entry per event that no
-- query needed. They get the position as their primary key, once, and lose the two. The unique
-- index is built from the events already stored while readers go on (CREATE INDEX blocks
-- writes only); the table is locked for the swap alone.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_index WHERE indrelid = 'quire_events'::regclass AND indisprimary AND indnkeyatts = 1) THEN
    CREATE UNIQUE INDEX quire_events_position ON quire_events (transaction_id, global_position);
    ALTER TABLE quire_events DROP CONSTRAINT quire_events_pkey;
    ALTER TABLE quire_events ADD CONSTRAINT quire_events_pkey PRIMARY KEY USING INDEX quire_events_position;
    DROP INDEX IF EXISTS quire_events_global_order;
  END IF;
END;
$$;

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
-- Whether committed events wait beyond the horizon is asked of the newest one, max(transaction_id),
-- which is always the last entry of the primary key: NOT EXISTS (... WHERE transaction_id >= xmin)
-- was planned once for every xmin after five calls, as a sequential scan expected to meet such an
-- event within a few rows, and so read every event of the table on each page of $all (the
-- newest are last in it; 16 ms a page at 20,000 events, growing with the store).
CREATE OR REPLACE FUNCTION quire_read_horizon() RETURNS xid8 LANGUAGE plpgsql STABLE AS $$
DECLARE
  s pg_snapshot := pg_current_snapshot();
BEGIN
  IF coalesce((SELECT max(transaction_id) FROM quire_events) < pg_snapshot_xmin(s), true) THEN
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

-- Stream versions were kept in a table of their own (quire_streams), updated by every append
-- beside its events. An installation that has it drops it (this script runs as one transaction,
-- so the functions below are replaced with it); a view of the same name answers processes of the
-- previous version that still read a stream's version from it during a rolling upgrade.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE oid = to_regclass('quire_streams') AND relkind = 'r') THEN
    DROP TABLE quire_streams;
  END IF;
END;
$$;
CREATE OR REPLACE VIEW quire_streams AS
  SELECT stream_id, max(stream_version) AS version FROM quire_events GROUP BY stream_id;

-- The append of the previous versions, kept for their processes while an installation is upgraded
-- one process at a time: the statement above, with their contract (a lost race on the stream's
-- version is a conflict, not an error; with no expected version it is tried again) and their
-- events, {id, type, schemaVersion, data, metadata} objects, made into APPEND_SQL's arrays.
CREATE OR REPLACE FUNCTION quire_append(p_stream text, p_expected bigint, p_events jsonb)
RETURNS TABLE (out_conflict boolean, out_version bigint, out_tx text, out_last_position bigint) LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_constraint text;
BEGIN
  LOOP
    BEGIN
      EXECUTE $append$${APPEND_SQL}$append$ INTO r USING p_stream, p_expected, (
        SELECT coalesce(jsonb_agg(jsonb_build_array(x->'id', x->'type', x->'schemaVersion', x->'data', x->'metadata') ORDER BY i), '[]'::jsonb)
          FROM jsonb_array_elements(p_events) WITH ORDINALITY AS t(x, i));
      IF r.appended = 0 THEN
        RETURN QUERY SELECT true, r.version::bigint, NULL::text, NULL::bigint;
      ELSE
        RETURN QUERY SELECT false, r.version::bigint + r.appended, r.tx, r.last_position::bigint;
      END IF;
      RETURN;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint NOT LIKE '%stream_version%' THEN
        RAISE;
      END IF;
      IF p_expected IS NOT NULL THEN
        RETURN QUERY SELECT true, coalesce(max(stream_version), 0::bigint), NULL::text, NULL::bigint FROM quire_events WHERE stream_id = p_stream;
        RETURN;
      END IF;
    END;
  END LOOP;
END;
$$;

CREATE OR REPLACE FUNCTION quire_append(
  p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_versions int[], p_data jsonb[], p_meta jsonb[]
) RETURNS TABLE (out_conflict boolean, out_version bigint, out_tx text, out_last_position bigint) LANGUAGE sql AS $$
  SELECT * FROM quire_append(p_stream, p_expected, (
    SELECT coalesce(jsonb_agg(jsonb_build_object('id', p_ids[i], 'type', p_types[i], 'schemaVersion', p_versions[i], 'data', p_data[i], 'metadata', p_meta[i]) ORDER BY i), '[]'::jsonb)
      FROM generate_subscripts(p_ids, 1) AS i
  ))
$$;
`;
