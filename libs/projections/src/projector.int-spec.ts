import { PgDb } from '@quire/platform/db/pg-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import { Projection } from './projection';
import { Projector, ProjectionFailedError } from './projector';

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

  it('runs each projection in one process only, and another takes over when it stops', async () => {
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
