import { Client } from 'pg';
import { randomUUID } from 'crypto';
import { PgDb } from '@quire/platform/db/pg-db';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { RecordedEvent, WrongExpectedVersionError } from '../event-store.port';
import { START } from '../position';
import { SqlEventStore } from './sql-event-store';
import { APPEND_SQL } from './event-store.schema';

/** One event as the append statement takes it ($3). */
const oneEvent = (type = 'T') => JSON.stringify([[randomUUID(), type, 1, {}, {}]]);

describe('PostgreSQL event store under concurrency', () => {
  let database: TestDatabase;
  let db: PgDb;
  let store: SqlEventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new PgDb(database.url, { max: 12 });
    store = await SqlEventStore.create(db);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
    await database.drop();
  });

  it("keeps the previous version's append signature working, with its version check, during a rolling upgrade", async () => {
    const previous = (expected: number | null, ids: string[]) =>
      db.query<{ out_conflict: boolean; out_version: number }>(`SELECT * FROM quire_append($1, $2, $3::uuid[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[])`, [
        'rolling-upgrade',
        expected,
        ids,
        ids.map(() => 'T'),
        ids.map(() => 1),
        ids.map((_, i) => JSON.stringify({ n: i })),
        ids.map(() => '{}'),
      ]);
    const first = [randomUUID(), randomUUID()];
    expect((await previous(0, first)).rows[0]).toMatchObject({ out_conflict: false, out_version: 2 });
    expect((await previous(0, [randomUUID()])).rows[0]).toMatchObject({ out_conflict: true, out_version: 2 });
    expect((await previous(2, [randomUUID()])).rows[0]).toMatchObject({ out_conflict: false, out_version: 3 });
    const events = await store.readStream('rolling-upgrade');
    expect(events.map((e) => [e.id, e.streamVersion, e.data])).toEqual([
      [first[0], 1, { n: 0 }],
      [first[1], 2, { n: 1 }],
      [expect.any(String), 3, { n: 0 }],
    ]);
  });

  it('given another writer appending at the same expected version in a transaction still open, the append waits for it and is rejected once it commits', async () => {
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      await store.append('same-version', [{ type: 'First', data: {} }], 'no_stream');
      await other.query('BEGIN');
      expect((await other.query(APPEND_SQL, ['same-version', 1, oneEvent('Theirs')])).rows[0]).toMatchObject({ version: '1', appended: 1 });
      const ours = store.append('same-version', [{ type: 'Ours', data: {} }], 1);
      const settled = ours.then(() => 'appended', () => 'rejected');
      await new Promise((r) => setTimeout(r, 200));
      expect(await Promise.race([settled, 'waiting'])).toBe('waiting');
      await other.query('COMMIT');
      await expect(ours).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(ours).rejects.toMatchObject({ actual: 2 });
      expect((await store.readStream('same-version')).map((e) => [e.type, e.streamVersion])).toEqual([['First', 1], ['Theirs', 2]]);
    } finally {
      await other.end();
    }
  });

  it('given another writer appending in a transaction still open, an append with no expected version follows it once it commits', async () => {
    const other = new Client({ connectionString: database.url });
    await other.connect();
    try {
      await store.append('any-version', [{ type: 'First', data: {} }], 'no_stream');
      await other.query('BEGIN');
      await other.query(APPEND_SQL, ['any-version', null, oneEvent('Theirs')]);
      const ours = store.append('any-version', [{ type: 'Ours', data: {} }], 'any');
      await new Promise((r) => setTimeout(r, 200));
      await other.query('COMMIT');
      expect((await ours).nextVersion).toBe(3);
      expect((await store.readStream('any-version')).map((e) => [e.type, e.streamVersion])).toEqual([['First', 1], ['Theirs', 2], ['Ours', 3]]);
    } finally {
      await other.end();
    }
  });

  it('16 writers racing on one stream with expected versions: each version is written once, every loser is told the version that won', async () => {
    const rounds = 20;
    const stream = `contended-${randomUUID()}`;
    for (let version = 0; version < rounds; version++) {
      const results = await Promise.allSettled(
        Array.from({ length: 16 }, (_, w) => store.append(stream, [{ type: 'Raced', data: { w } }], version === 0 ? 'no_stream' : version)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) {
        if (r.status === 'fulfilled') continue;
        expect(r.reason).toBeInstanceOf(WrongExpectedVersionError);
        expect(r.reason.actual).toBe(version + 1);
      }
    }
    expect((await store.readStream(stream)).map((e) => e.streamVersion)).toEqual(Array.from({ length: rounds }, (_, i) => i + 1));
  });

  it('wakes listeners in other processes after appends, at most one wake-up per 10 ms under a steady stream, and never leaves the last append unannounced', async () => {
    const listener = new Client({ connectionString: database.url });
    await listener.connect();
    try {
      const wakeUps: number[] = [];
      listener.on('notification', (n) => n.channel === 'quire_events' && wakeUps.push(Date.now()));
      await listener.query('LISTEN quire_events');
      const stream = `steady-${randomUUID()}`;
      const started = Date.now();
      // 8 writers for 500 ms: hundreds of appends, more than one per 10 ms.
      let appended = 0;
      let lastAppend = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          const own = `${stream}-${w}`;
          for (let v = 0; Date.now() - started < 500; v++) {
            await store.append(own, [{ type: 'Steady', data: { v } }], v === 0 ? 'no_stream' : v);
            appended++;
            lastAppend = Date.now();
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
      const gaps = wakeUps.slice(1).map((t, k) => t - wakeUps[k]).sort((a, b) => a - b);
      expect(appended).toBeGreaterThan(wakeUps.length * 2);
      expect(gaps[Math.floor(gaps.length / 2)]).toBeGreaterThanOrEqual(9);
      // The last appends are announced after they committed, not folded into an earlier wake-up.
      expect(wakeUps[wakeUps.length - 1]).toBeGreaterThanOrEqual(lastAppend);
    } finally {
      await listener.end();
    }
  });

  it('given a transaction that commits after a later one, a $all reader never passes it', async () => {
    const early = new Client({ connectionString: database.url });
    const late = new Client({ connectionString: database.url });
    await early.connect();
    await late.connect();
    const from = await store.headPosition();
    const append = (c: Client, stream: string) => c.query(APPEND_SQL, [stream, null, oneEvent()]);
    try {
      await early.query('BEGIN');
      await append(early, 'race-early'); // takes the lower sequence number, commits last
      await late.query('BEGIN');
      await append(late, 'race-late');
      await late.query('COMMIT');

      // A naive reader ordered by the sequence alone now sees the later event and moves past the earlier one.
      const naive = await db.query<{ global_position: number }>(
        `SELECT global_position FROM quire_events WHERE stream_id LIKE 'race-%' ORDER BY global_position`,
      );
      expect(naive.rows).toHaveLength(1);

      // Ours holds back until the earlier transaction is settled.
      expect((await store.readAll(from, 100)).filter((e) => e.streamId.startsWith('race-'))).toHaveLength(0);
      await early.query('COMMIT');
      let seen: RecordedEvent[] = [];
      // Other databases' transactions in the cluster may hold readers back a moment longer.
      for (let i = 0; i < 500 && seen.length < 2; i++) {
        seen = (await store.readAll(from, 100)).filter((e) => e.streamId.startsWith('race-'));
        if (seen.length < 2) await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen.map((e) => e.streamId)).toEqual(['race-early', 'race-late']);
    } finally {
      await early.end();
      await late.end();
    }
  });

  it("given a long transaction in another database of the server, this database's readers are not held back by it", async () => {
    const elsewhere = await createTestDatabase();
    const other = new Client({ connectionString: elsewhere.url });
    await other.connect();
    try {
      // An open transaction that has written (holds a transaction id) in a neighbouring database:
      // a report, a migration, another installation's rebuild.
      await other.query('BEGIN');
      await other.query('CREATE TABLE held (n int)');
      const { rows } = await other.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      const from = await store.headPosition();
      await store.append('beside-a-long-transaction', [{ type: 'T', data: {} }], 'no_stream');

      // The cluster-wide horizon is stuck behind it...
      const clusterWide = await db.query<{ xmin: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`);
      expect(BigInt(clusterWide.rows[0].xmin)).toBeLessThanOrEqual(BigInt(rows[0].xid));
      // ...ours reads the committed event while it stays open. A short transaction of another
      // database (another suite's) that ends between the reader's snapshot and its look at the
      // backends holds a read back for that moment only (once it is gone, quire_read_horizon
      // cannot tell its database): the reader retries for up to 2 s, the long one open throughout.
      let seen: RecordedEvent[] = [];
      for (let i = 0; i < 100 && seen.length === 0; i++) {
        seen = (await store.readAll(from, 100)).filter((e) => e.streamId === 'beside-a-long-transaction');
        if (seen.length === 0) await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen).toHaveLength(1);
      expect((await store.headPosition()).commit).toBeGreaterThan(BigInt(rows[0].xid));
    } finally {
      await other.query('ROLLBACK');
      await other.end();
      await elsewhere.drop();
    }
  });

  it("given this database's own transaction in flight, readers still stop before it while a neighbour's is passed over", async () => {
    const elsewhere = await createTestDatabase();
    const other = new Client({ connectionString: elsewhere.url });
    const mine = new Client({ connectionString: database.url });
    await other.connect();
    await mine.connect();
    try {
      await other.query('BEGIN');
      await other.query('CREATE TABLE held (n int)');
      const from = await store.headPosition();
      await mine.query('BEGIN');
      await mine.query(APPEND_SQL, ['held-here', null, oneEvent()]);
      await store.append('after-held-here', [{ type: 'T', data: {} }], 'no_stream');
      expect((await store.readAll(from, 100)).filter((e) => /held-here$/.test(e.streamId))).toHaveLength(0);
      await mine.query('COMMIT');
      // Both, in order, while the neighbour's transaction stays open (another suite's short
      // transaction may hold a read back a moment, as above).
      let seen: RecordedEvent[] = [];
      for (let i = 0; i < 100 && seen.length < 2; i++) {
        seen = (await store.readAll(from, 100)).filter((e) => /held-here$/.test(e.streamId));
        if (seen.length < 2) await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen.map((e) => e.streamId)).toEqual(['held-here', 'after-held-here']);
    } finally {
      await other.query('ROLLBACK');
      await mine.end();
      await other.end();
      await elsewhere.drop();
    }
  });

  it('finds where readers stop from the newest event, without scanning the events, however often a session asks', async () => {
    await store.append('horizon-scan', Array.from({ length: 2_000 }, (_, i) => ({ type: 'T', data: { i } })), 'no_stream');
    await db.exec('ANALYZE quire_events');
    const reader = new Client({ connectionString: database.url });
    await reader.connect();
    try {
      // PL/pgSQL plans its statements for the values of the first five calls, then may keep one
      // plan for every later value: the calls past the fifth are the ones that matter.
      await reader.query('BEGIN');
      for (let i = 0; i < 12; i++) await reader.query('SELECT quire_read_horizon()');
      const scans = await reader.query<{ seq_scan: string }>(`SELECT seq_scan::text FROM pg_stat_xact_user_tables WHERE relname = 'quire_events'`);
      expect(scans.rows.map((r) => r.seq_scan)).toEqual(['0']);
    } finally {
      await reader.query('ROLLBACK');
      await reader.end();
    }
  });

  it('8 writers x 2,000 events on overlapping streams: a subscriber sees each exactly once, in stream order', async () => {
    const writers = 8;
    const perWriter = 2_000;
    const streams = Array.from({ length: 24 }, (_, i) => `overlap-${i}`);
    const seen: RecordedEvent[] = [];
    let done!: () => void;
    const allSeen = new Promise<void>((resolve) => (done = resolve));
    const sub = store.subscribe(START, {
      batchSize: 1000,
      onEvents: async (events) => {
        for (const e of events) if (e.streamId.startsWith('overlap-')) seen.push(e);
        if (seen.length >= writers * perWriter) done();
      },
    });

    const written: string[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          const id = randomUUID();
          written.push(id);
          await store.append(streams[(w * 7 + i) % streams.length], [{ id, type: 'Written', data: { w, i } }], 'any');
        }
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([allSeen, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`saw ${seen.length}`)), 30_000)))]);
    clearTimeout(timer);
    await sub.close();

    expect(seen).toHaveLength(writers * perWriter);
    expect(new Set(seen.map((e) => e.id)).size).toBe(writers * perWriter);
    expect(new Set(written)).toEqual(new Set(seen.map((e) => e.id)));
    const lastVersion = new Map<string, number>();
    for (const e of seen) {
      expect(e.streamVersion).toBe((lastVersion.get(e.streamId) ?? 0) + 1);
      lastVersion.set(e.streamId, e.streamVersion);
    }
  }, 120_000);
});
