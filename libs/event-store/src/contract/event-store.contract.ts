import { randomUUID } from 'crypto';
import { EventStore, RecordedEvent, WrongExpectedVersionError } from '../event-store.port';
import { comparePositions, Position, START } from '../position';

/**
 * Reads `$all` until `done` holds. Readers never pass a transaction still in flight anywhere
 * in the PostgreSQL cluster, so an append can take a moment to become visible (never skipped).
 */
async function readAllUntil(store: EventStore, from: Position, done: (events: RecordedEvent[]) => boolean, limit = 10_000): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = await store.readAll(from, limit);
    if (done(events) || Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The behaviour every EventStore adapter must have. Call inside a `describe` with a factory
 * that returns a fresh, empty store.
 */
export function eventStoreContract(name: string, open: () => Promise<{ store: EventStore; dispose(): Promise<void> }>) {
  describe(`${name}: EventStore contract`, () => {
    let store: EventStore;
    let dispose: () => Promise<void>;
    const stream = () => `test-${randomUUID()}`;

    // Streams are unique per test, so one store serves the whole suite.
    beforeAll(async () => {
      ({ store, dispose } = await open());
    });
    afterAll(async () => {
      await store.close();
      await dispose();
    });

    it('appends to a new stream and reads it back in order', async () => {
      const s = stream();
      const before = Date.now();
      const result = await store.append(
        s,
        [
          { type: 'A', data: { n: 1 } },
          { type: 'B', data: { n: 2 }, metadata: { actor: 'u1' } },
        ],
        'no_stream',
      );
      expect(result.nextVersion).toBe(2);
      const events = await store.readStream(s);
      expect(events.map((e) => [e.type, e.streamVersion, e.data])).toEqual([
        ['A', 1, { n: 1 }],
        ['B', 2, { n: 2 }],
      ]);
      expect(events[1].metadata.actor).toBe('u1');
      expect(events[0].schemaVersion).toBe(1);
      expect(comparePositions(events[0].position, events[1].position)).toBeLessThan(0);
      // When it was recorded, to the millisecond (the store's clock may be a little off ours).
      for (const e of events) {
        expect(e.recordedAt).toBeInstanceOf(Date);
        expect(Math.abs(e.recordedAt.getTime() - before)).toBeLessThan(60_000);
      }
    });

    it('rejects an append whose expected version is stale, and writes nothing', async () => {
      const s = stream();
      await store.append(s, [{ type: 'A', data: {} }], 'no_stream');
      await expect(store.append(s, [{ type: 'B', data: {} }], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(store.append(s, [{ type: 'B', data: {} }], 5)).rejects.toMatchObject({ actual: 1 });
      await expect(store.append(stream(), [{ type: 'B', data: {} }], 3)).rejects.toMatchObject({ actual: 0 });
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['A']);
      await store.append(s, [{ type: 'C', data: {} }], 1);
      await store.append(s, [{ type: 'D', data: {} }], 'any');
      expect((await store.readStream(s)).map((e) => e.type)).toEqual(['A', 'C', 'D']);
    });

    it('treats a repeated append of the same event ids as a no-op', async () => {
      const s = stream();
      const events = [
        { id: randomUUID(), type: 'A', data: { n: 1 } },
        { id: randomUUID(), type: 'B', data: { n: 2 } },
      ];
      const first = await store.append(s, events, 'no_stream');
      const again = await store.append(s, events, 'no_stream');
      expect(again.nextVersion).toBe(first.nextVersion);
      expect(comparePositions(again.position, first.position)).toBe(0);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('reads $all in global order from a position, exclusive', async () => {
      const a = stream();
      const b = stream();
      const start = await store.headPosition();
      await store.append(a, [{ type: 'A1', data: {} }], 'no_stream');
      await store.append(b, [{ type: 'B1', data: {} }], 'no_stream');
      await store.append(a, [{ type: 'A2', data: {} }, { type: 'A3', data: {} }], 1);
      const mine = (e: RecordedEvent) => e.streamId === a || e.streamId === b;
      const all = (await readAllUntil(store, start, (es) => es.filter(mine).length >= 4)).filter(mine);
      expect(all.map((e) => e.type)).toEqual(['A1', 'B1', 'A2', 'A3']);
      const after = await readAllUntil(store, all[1].position, (es) => es.filter((e) => e.streamId === a).length >= 2);
      expect(after.filter((e) => e.streamId === a).map((e) => e.type)).toEqual(['A2', 'A3']);
      const page = await store.readAll(start, 2);
      expect(page).toHaveLength(2);
      expect(comparePositions(await store.headPosition(), all[3].position)).toBeGreaterThanOrEqual(0);
    });

    it('subscribes from a position and receives later appends', async () => {
      const s = stream();
      await store.append(s, [{ type: 'Before', data: {} }], 'no_stream');
      const [before] = await store.readStream(s);
      const from = before.position;
      const seen: RecordedEvent[] = [];
      let resolve!: () => void;
      const gotTwo = new Promise<void>((r) => (resolve = r));
      const sub = store.subscribe(from, {
        onEvents: async (events) => {
          seen.push(...events.filter((e) => e.streamId === s));
          if (seen.length >= 2) resolve();
        },
      });
      await store.append(s, [{ type: 'After1', data: {} }], 1);
      await store.append(s, [{ type: 'After2', data: {} }], 2);
      await gotTwo;
      await sub.close();
      expect(seen.map((e) => e.type)).toEqual(['After1', 'After2']);
    });

    it('keeps global order across the digits boundary of positions (8, 9, 10, 11)', async () => {
      const s = stream();
      const from = await store.headPosition();
      await store.append(s, Array.from({ length: 12 }, (_, i) => ({ type: `E${i}`, data: { i } })), 'no_stream');
      const mine = (await readAllUntil(store, from, (es) => es.filter((e) => e.streamId === s).length >= 12)).filter((e) => e.streamId === s);
      expect(mine.map((e) => e.streamVersion)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      for (let i = 1; i < mine.length; i++) expect(comparePositions(mine[i - 1].position, mine[i].position)).toBeLessThan(0);
    });

    it('starts from the beginning at START', async () => {
      const s = stream();
      await store.append(s, [{ type: 'First', data: {} }], 'no_stream');
      const all = await readAllUntil(store, START, (es) => es.some((e) => e.streamId === s));
      expect(all.some((e) => e.streamId === s)).toBe(true);
    });
  });
}
