import { PgDb } from '@quire/platform/db/pg-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { Projection } from './projection';
import { Projector, ProjectionFailedError } from './projector';
import { rebuildProjection, rebuildProjections } from './rebuild';

const counter = (version = 1, failOn?: string): Projection => ({
  name: 'counter',
  version,
  tables: ['rm_counter'],
  handles: ['Counted', 'Poison'],
  schema: (t) => `CREATE TABLE ${t('rm_counter')} (stream text PRIMARY KEY, n int NOT NULL);`,
  async apply(event, tx, t) {
    if (event.type === failOn) throw new Error('cannot apply this one');
    await tx.query(`INSERT INTO ${t('rm_counter')} (stream, n) VALUES ($1, 1) ON CONFLICT (stream) DO UPDATE SET n = ${t('rm_counter')}.n + 1`, [event.streamId]);
  },
});

describe('Projector', () => {
  let database: TestDatabase;
  let db: PgDb;
  let store: SqlEventStore;
  const count = async (stream: string) => (await db.query<{ n: number }>(`SELECT n FROM rm_counter WHERE stream = $1`, [stream])).rows[0]?.n ?? 0;

  const running: Projector[] = [];
  const started = (p: Projector) => (running.push(p), p);

  beforeEach(async () => {
    database = await createTestDatabase();
    db = new PgDb(database.url);
    store = await SqlEventStore.create(db);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop().catch(() => undefined)));
    await db.close();
    await database.drop();
  });

  it('applies events and lets a writer wait for its position (read-your-writes)', async () => {
    const projector = started(new Projector(db, store, [counter()]));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const { position } = await store.append('s1', [{ type: 'Counted', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    await projector.waitFor(position, ['Counted'], 5000);
    expect(await count('s1')).toBe(2);
    await projector.stop();
  });

  it('runs the work a batch leaves for after its commit outside its transaction, once its checkpoint is announced, without failing the batch', async () => {
    const seen: Array<{ counted: number; inTransaction: boolean }> = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const later: Projection = {
      ...counter(),
      async apply(event, tx, t, ctx) {
        await counter().apply(event, tx, t);
        ctx!.afterCommit(async (conn) => {
          await held;
          // Another session sees the batch's rows: committed. And no transaction is open here.
          const r = await conn.query<{ n: number; xact: boolean }>(
            `SELECT (SELECT n FROM rm_counter WHERE stream = $1) AS n, pg_current_xact_id_if_assigned() IS NOT NULL AS xact`,
            [event.streamId],
          );
          seen.push({ counted: r.rows[0].n, inTransaction: r.rows[0].xact });
          if (event.type === 'Poison') throw new Error('statistics failed');
        });
      },
    };
    const projector = started(new Projector(db, store, [later]));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const { position } = await store.append('s9', [{ type: 'Counted', data: {} }], 'no_stream');
    // The wait ends while the work is still held: readers do not wait for it.
    await projector.waitFor(position, ['Counted'], 5000);
    expect(seen).toEqual([]);
    release();
    await projector.afterCommitsDone();
    expect(seen).toEqual([{ counted: 1, inTransaction: false }]);
    // A failing piece of work is logged; the batch stays applied and the projection running.
    const second = await store.append('s9', [{ type: 'Poison', data: {} }], 'any');
    await projector.waitFor(second.position, ['Poison'], 5000);
    await projector.afterCommitsDone();
    expect(seen).toEqual([{ counted: 1, inTransaction: false }, { counted: 2, inTransaction: false }]);
    expect((await projector.status())[0].status).toBe('running');
  });

  /** A projection of `Noted` events: each one applied is a row (so an event applied twice shows). */
  const notes = (): Projection => ({
    name: 'notes',
    version: 1,
    tables: ['rm_notes'],
    handles: ['Noted'],
    schema: (t) => `CREATE TABLE ${t('rm_notes')} (id text PRIMARY KEY, applied int NOT NULL);`,
    async apply(event, tx, t) {
      await tx.query(`INSERT INTO ${t('rm_notes')} (id, applied) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET applied = ${t('rm_notes')}.applied + 1`, [event.id]);
    },
  });
  const checkpoint = async (name: string) => (await db.query<{ pos: string }>(`SELECT commit_pos || '/' || prepare_pos AS pos FROM quire_projections WHERE name = $1`, [name])).rows[0].pos;

  it('passes a projection over a batch it handles nothing of, announcing its checkpoint to every process, with no transaction of its own', async () => {
    const transactions: string[] = [];
    const counting = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'transaction') return (work: any) => (transactions.push(new Error().stack ?? ''), target.transaction(work));
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runner = started(new Projector(counting, store, [counter(), notes()]));
    const observer = started(new Projector(db, store, [counter(), notes()]));
    for (const p of [runner, observer]) {
      await p.prepare();
      await p.startObserving();
    }
    await runner.startRunning();
    transactions.length = 0;
    const { position } = await store.append('s-pass', [{ type: 'Counted', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    // The observer runs neither: it learns both checkpoints from their announcements.
    await observer.waitForProjections(position, ['counter', 'notes'], 5000);
    expect(await count('s-pass')).toBe(2);
    expect(await checkpoint('notes')).toBe(`${position.commit}/${position.prepare}`);
    expect(transactions).toHaveLength(1); // the counter's
  });

  it('applies what a passed-over projection lacks when its checkpoint was moved back (a rebuild swapped in an older one), never skipping it', async () => {
    const projector = started(new Projector(db, store, [counter(), notes()]));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const noted = await store.append('s-notes', [{ type: 'Noted', data: {} }], 'no_stream');
    await projector.waitFor(noted.position, ['Noted'], 5000);
    // As a swap of an older rebuild would leave it: the checkpoint, and the rows, from before the note.
    await db.query(`UPDATE quire_projections SET commit_pos = '0', prepare_pos = '0' WHERE name = 'notes'`);
    await db.query(`DELETE FROM rm_notes`);
    const { position } = await store.append('s-count', [{ type: 'Counted', data: {} }], 'no_stream');
    await projector.waitForProjections(position, ['counter', 'notes'], 5000);
    expect(await checkpoint('notes')).toBe(`${position.commit}/${position.prepare}`);
    expect((await db.query(`SELECT applied FROM rm_notes`)).rows).toEqual([{ applied: 1 }]);
  });

  it('runs each projection in one process only, and every process sees its checkpoint move', async () => {
    const a = started(new Projector(db, store, [counter()]));
    const b = started(new Projector(db, store, [counter()]));
    for (const p of [a, b]) {
      await p.prepare();
      await p.startObserving();
      await p.startRunning();
    }
    const running = (await a.status()).filter((s) => s.runningHere).length + (await b.status()).filter((s) => s.runningHere).length;
    expect(running).toBe(1);
    const { position } = await store.append('s2', [{ type: 'Counted', data: {} }], 'no_stream');
    // Whichever runs it, both see the checkpoint move.
    await Promise.all([a.waitFor(position, ['Counted'], 5000), b.waitFor(position, ['Counted'], 5000)]);
    expect(await count('s2')).toBe(1);
    await a.stop();
    await b.stop();
  });

  it('a standby takes over a stopped runner and applies every event exactly once', async () => {
    const a = started(new Projector(db, store, [counter()], undefined, { lockIntervalMs: 200 }));
    await a.prepare();
    await a.startObserving();
    await a.startRunning();
    const b = started(new Projector(db, store, [counter()], undefined, { lockIntervalMs: 200 }));
    await b.prepare();
    await b.startObserving();
    await b.startRunning();
    expect((await a.status())[0].runningHere).toBe(true);
    expect((await b.status())[0].runningHere).toBe(false);
    const first = await store.append('s5', [{ type: 'Counted', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    await b.waitFor(first.position, ['Counted'], 5000);
    // Give the standby time to read (and, before the fix, drop) what A applied.
    await new Promise((r) => setTimeout(r, 300));

    await a.stop();
    let version = 2;
    for (let i = 0; i < 5; i++) await store.append('s5', [{ type: 'Counted', data: {} }], version++);
    const second = await store.append('s5', [{ type: 'Counted', data: {} }], version++);
    await b.waitFor(second.position, ['Counted'], 10_000);
    expect((await b.status())[0].runningHere).toBe(true);
    expect(await count('s5')).toBe(8);
    const third = await store.append('s5', [{ type: 'Counted', data: {} }], version++);
    await b.waitFor(third.position, ['Counted'], 5000);
    expect(await count('s5')).toBe(9);
  });

  it('takes its lock again after losing the connection that held it', async () => {
    const projector = started(new Projector(db, store, [counter()], undefined, { lockIntervalMs: 200 }));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const holders = async () =>
      (await db.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows.map((r) => r.pid);
    const [pid] = await holders();
    expect(pid).toBeDefined();
    await db.query(`SELECT pg_terminate_backend($1)`, [pid]);
    const deadline = Date.now() + 5000;
    let now: number[] = [];
    while (Date.now() < deadline) {
      now = await holders();
      if (now.length === 1 && now[0] !== pid) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(pid);
    expect((await projector.status())[0].runningHere).toBe(true);
    const { position } = await store.append('s6', [{ type: 'Counted', data: {} }], 'no_stream');
    await projector.waitFor(position, ['Counted'], 5000);
    expect(await count('s6')).toBe(1);
  });

  it('stops a projection on a poison event, reports it, and never skips it', async () => {
    const projector = started(new Projector(db, store, [counter(1, 'Poison')]));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const first = await store.append('s3', [{ type: 'Counted', data: {} }], 'no_stream');
    await projector.waitFor(first.position, ['Counted'], 5000);
    const { position } = await store.append('s3', [{ type: 'Poison', data: {} }, { type: 'Counted', data: {} }], 1);
    await expect(projector.waitFor(position, ['Counted'], 5000)).rejects.toBeInstanceOf(ProjectionFailedError);
    const [status] = await projector.status();
    expect(status.status).toBe('failed');
    expect(status.error).toMatch(/Poison\.v1.*cannot apply this one/);
    expect((await projector.lag()).failed).toEqual(['counter']);
    // The batch holding the poison event was not committed: nothing after it was applied either.
    expect(await count('s3')).toBe(1);
    await projector.stop();
  });

  it('retries a batch that hit a transient database error (a canceled query) instead of stopping the projection', async () => {
    let cancellations = 2;
    const flaky: Projection = {
      ...counter(),
      async apply(event, tx, t) {
        if (cancellations > 0) {
          cancellations--;
          // A real 57014 from PostgreSQL: the statement times out.
          await tx.query(`SET LOCAL statement_timeout = '20ms'`);
          await tx.query(`SELECT pg_sleep(0.5)`);
        }
        return counter().apply(event, tx, t);
      },
    };
    const projector = started(new Projector(db, store, [flaky]));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const { position } = await store.append('s7', [{ type: 'Counted', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    await projector.waitFor(position, ['Counted'], 10_000);
    expect(cancellations).toBe(0);
    expect(await count('s7')).toBe(2);
    expect((await projector.status())[0]).toMatchObject({ status: 'running', error: null });
  });

  it('runs a failed projection again once a replay has rebuilt it, without a restart', async () => {
    let poisonBreaks = true;
    const fixable: Projection = {
      ...counter(),
      async apply(event, tx, t) {
        if (event.type === 'Poison') {
          if (poisonBreaks) throw new Error('cannot apply this one');
          return;
        }
        return counter().apply(event, tx, t);
      },
    };
    const projector = started(new Projector(db, store, [fixable]));
    await projector.prepare();
    await projector.startObserving();
    await projector.startRunning();
    const { position } = await store.append('s8', [{ type: 'Counted', data: {} }, { type: 'Poison', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    await expect(projector.waitFor(position, ['Counted'], 5000)).rejects.toBeInstanceOf(ProjectionFailedError);

    poisonBreaks = false; // the fault is fixed, then the projection is replayed
    await rebuildProjection({ db, store, projection: fixable });
    expect(await count('s8')).toBe(2);
    const later = await store.append('s8', [{ type: 'Counted', data: {} }], 3);
    await projector.waitFor(later.position, ['Counted'], 5000);
    expect(await count('s8')).toBe(3);
    expect((await projector.status())[0]).toMatchObject({ status: 'running', runningHere: true });
  });

  it('lets processes that start together prepare one after the other (no double create, no double rebuild)', async () => {
    const fresh = [new Projector(db, store, [counter(1)]), new Projector(db, store, [counter(1)])].map(started);
    await Promise.all(fresh.map((p) => p.prepare()));
    await fresh[0].startRunning();
    const { position } = await store.append('s9', [{ type: 'Counted', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    await fresh[0].waitFor(position, ['Counted'], 5000);
    await Promise.all(fresh.map((p) => p.stop()));

    const bumped = [new Projector(db, store, [counter(2)]), new Projector(db, store, [counter(2)]), new Projector(db, store, [counter(2)])].map(started);
    await Promise.all(bumped.map((p) => p.prepare()));
    expect(await count('s9')).toBe(2);
    expect((await bumped[0].status())[0]).toMatchObject({ version: 2, status: 'running' });
  });

  it('swaps several rebuilt projections in with their versions and checkpoints, and announces each checkpoint', async () => {
    const { position } = await store.append('s7', [{ type: 'Counted', data: {} }], 'no_stream');
    const other: Projection = {
      ...counter(3),
      name: 'counter-b',
      tables: ['rm_counter_b'],
      schema: (t) => `CREATE TABLE ${t('rm_counter_b')} (stream text PRIMARY KEY, n int NOT NULL);`,
      apply: async () => undefined,
    };
    const heard: string[] = [];
    const unlisten = await db.listen('quire_checkpoints', (payload) => heard.push(payload));
    try {
      await rebuildProjections({ db, store, projections: [counter(2), other] });
      const at = `${position.commit}/${position.prepare}`;
      for (const deadline = Date.now() + 5000; heard.length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      expect(heard.sort()).toEqual([`counter-b:${at}`, `counter:${at}`].sort());
      const rows = (await db.query(`SELECT name, version, commit_pos, prepare_pos, status FROM quire_projections ORDER BY name`)).rows;
      expect(rows).toEqual([
        { name: 'counter', version: 2, commit_pos: String(position.commit), prepare_pos: String(position.prepare), status: 'running' },
        { name: 'counter-b', version: 3, commit_pos: String(position.commit), prepare_pos: String(position.prepare), status: 'running' },
      ]);
    } finally {
      await unlisten();
    }
  });

  it('swaps rebuilt tables in with every index their schema creates, the ones built after the events included', async () => {
    await store.append('s8', [{ type: 'Counted', data: {} }], 'no_stream');
    const indexed: Projection = {
      ...counter(2),
      schema: (t) => `
        CREATE TABLE ${t('rm_counter')} (stream text PRIMARY KEY, n int NOT NULL, label text UNIQUE);
        CREATE INDEX rm_counter_n ON ${t('rm_counter')} (n);
        CREATE INDEX rm_counter_labelled
          ON ${t('rm_counter')} (label, n) WHERE label IS NOT NULL;
        CREATE UNIQUE INDEX rm_counter_lower ON ${t('rm_counter')} (lower(label));
        CREATE OR REPLACE FUNCTION rm_counter_noop() RETURNS void LANGUAGE plpgsql AS $body$
        BEGIN
        END
        $body$;`,
    };
    const indexes = async () =>
      (await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'rm_counter' ORDER BY indexname`)).rows.map((r) => r.indexdef);
    await db.exec(indexed.schema((t) => t));
    const created = await indexes();
    await rebuildProjection({ db, store, projection: indexed });
    expect(await indexes()).toEqual(created);
    expect(created).toHaveLength(5);
    expect(await count('s8')).toBe(1);
  });

  it('rebuilds a projection whose version changed at start', async () => {
    const v1 = started(new Projector(db, store, [counter(1)]));
    await v1.prepare();
    await v1.startObserving();
    await v1.startRunning();
    const { position } = await store.append('s4', [{ type: 'Counted', data: {} }, { type: 'Counted', data: {} }], 'no_stream');
    await v1.waitFor(position, ['Counted'], 5000);
    await v1.stop();
    await db.query(`UPDATE rm_counter SET n = 99`); // a v1 quirk the rebuild must wash out

    const v2 = started(new Projector(db, store, [counter(2)]));
    await v2.prepare();
    expect(await count('s4')).toBe(2);
    expect((await v2.status())[0]).toMatchObject({ version: 2, status: 'running' });
    await v2.stop();
  });
});
