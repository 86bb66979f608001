import { randomUUID } from 'crypto';
import { PgDb } from '@quire/platform/db/pg-db';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { WrongExpectedVersionError } from '../event-store.port';
import { START } from '../position';
import { SqlEventStore } from './sql-event-store';

/**
 * The tables of an installation of the previous version: events, and each stream's version kept
 * in quire_streams beside them (written by its appends).
 */
const PREVIOUS_SCHEMA = `
CREATE TABLE quire_streams (stream_id text PRIMARY KEY, version bigint NOT NULL);
CREATE TABLE quire_events (
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
CREATE INDEX quire_events_global_order ON quire_events (transaction_id, global_position);
`;

describe('event store schema upgrade', () => {
  let database: TestDatabase;
  let db: PgDb;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new PgDb(database.url, { max: 4 });
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('given an installation that kept stream versions in quire_streams, its streams go on from their versions after the upgrade', async () => {
    await db.exec(PREVIOUS_SCHEMA);
    for (const [stream, n] of [['space-a', 3], ['user-b', 1]] as const) {
      for (let v = 1; v <= n; v++) {
        await db.query(`INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata) VALUES ($1, $2, $3, 'Old', 1, '{}', '{}')`, [stream, v, randomUUID()]);
      }
      await db.query(`INSERT INTO quire_streams (stream_id, version) VALUES ($1, $2)`, [stream, n]);
    }

    const store = await SqlEventStore.create(db);
    // Run again, as every process does at start: the upgrade is done once.
    await SqlEventStore.create(db);

    await expect(store.append('space-a', [{ type: 'New', data: {} }], 2)).rejects.toMatchObject({ actual: 3 });
    await expect(store.append('space-a', [{ type: 'New', data: {} }], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect((await store.append('space-a', [{ type: 'New', data: {} }], 3)).nextVersion).toBe(4);
    expect((await store.append('user-b', [{ type: 'New', data: {} }, { type: 'New', data: {} }], 1)).nextVersion).toBe(3);
    expect((await store.readStream('space-a')).map((e) => [e.type, e.streamVersion])).toEqual([['Old', 1], ['Old', 2], ['Old', 3], ['New', 4]]);
    // Processes of the previous version still read a stream's version by that name while they run.
    expect((await db.query(`SELECT version FROM quire_streams WHERE stream_id = $1`, ['user-b'])).rows).toEqual([{ version: 3 }]);
  });

  it('given an installation whose primary key was global_position beside a (transaction_id, global_position) index, the position becomes the primary key and $all keeps its order', async () => {
    const previous = await createTestDatabase();
    const old = new PgDb(previous.url, { max: 2 });
    try {
      await old.exec(PREVIOUS_SCHEMA);
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (const [v, id] of ids.entries()) {
        await old.query(`INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata) VALUES ('space-a', $1, $2, 'Old', 1, '{}', '{}')`, [v + 1, id]);
      }

      const store = await SqlEventStore.create(old);
      await SqlEventStore.create(old);

      const indexes = await old.query<{ def: string; primary: boolean }>(
        `SELECT pg_get_indexdef(indexrelid) AS def, indisprimary AS primary FROM pg_index WHERE indrelid = 'quire_events'::regclass`,
      );
      expect(indexes.rows.map((r) => [r.def.replace(/^.* USING /, ''), r.primary]).sort()).toEqual([
        ['btree (event_id)', false],
        ['btree (stream_id, stream_version)', false],
        ['btree (transaction_id, global_position)', true],
      ]);
      await store.append('space-a', [{ type: 'New', data: {} }], 5);
      expect((await store.readAll(START, 100)).map((e) => e.id).slice(0, 5)).toEqual(ids);
    } finally {
      await old.close();
      await previous.drop();
    }
  });
});
