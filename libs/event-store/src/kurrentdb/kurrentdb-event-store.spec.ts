import { randomUUID } from 'crypto';
import { PassThrough } from 'stream';
import {
  KurrentDBClient,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { eventStoreContract } from '../contract/event-store.contract';
import { RecordedEvent } from '../event-store.port';
import { START } from '../position';
import { Upcasters } from '../upcasting';
import {
  BatchReader,
  KurrentDbEventStore,
  SCHEMA_VERSION_KEY,
  fromKurrentMetadata,
  toStreamState,
  toVersion,
} from './kurrentdb-event-store';

/**
 * An in-memory stand-in for the parts of `KurrentDBClient` the adapter calls, modelled on the server's
 * behaviour: 0-based revisions, self-committed events at (logPosition, logPosition), forward `$all`
 * reads inclusive of their start position, subscriptions exclusive of it, server-side filters counting
 * only matching events, and idempotent appends only when repeated at the same expected revision with no
 * position in the answer. It checks the adapter's mapping logic; the int-spec checks the real server.
 */
class FakeKurrentClient {
  private readonly log: FakeRecord[] = [];
  private nextLogPosition = 1000n;
  private readonly subs = new Set<PassThrough & { from: bigint }>();
  disposed = false;

  constructor() {
    // System events a real database starts with: a `$`-type, and a plain type in a `$`-stream.
    this.write('$stats-127.0.0.1:2113', [{ id: randomUUID(), type: '$statsCollected', data: {}, metadata: undefined }]);
    this.write('$$some-stream', [{ id: randomUUID(), type: 'metadata-like', data: {}, metadata: undefined }]);
  }

  async appendToStream(streamName: string, events: FakeEventData[], opts: { streamState?: unknown } = {}) {
    const state = opts.streamState ?? 'any';
    const stream = this.log.filter((r) => r.streamId === streamName);
    const current = stream.length === 0 ? 'no_stream' : BigInt(stream.length - 1);
    if (state !== 'any') {
      const expectedNext = state === 'no_stream' ? 0 : Number(state as bigint) + 1;
      const already = stream.slice(expectedNext, expectedNext + events.length);
      if (already.length === events.length && already.every((r, i) => r.id === events[i].id)) {
        return { success: true, nextExpectedRevision: already[already.length - 1].revision, position: undefined };
      }
      const ok = state === 'no_stream' ? current === 'no_stream' : current === state;
      if (!ok) {
        throw new KurrentWrongExpectedVersionError(undefined, {
          streamName,
          expected: state as bigint | 'no_stream',
          current,
        });
      }
    }
    const last = this.write(streamName, events);
    return { success: true, nextExpectedRevision: last.revision, position: { commit: last.logPosition, prepare: last.logPosition } };
  }

  readStream(streamName: string, opts: { fromRevision?: unknown; direction?: string; maxCount?: number | bigint } = {}) {
    const log = this.log;
    return (async function* () {
      let events = log.filter((r) => r.streamId === streamName);
      if (events.length === 0) throw new StreamNotFoundError(undefined, streamName);
      const backwards = opts.direction === 'backwards';
      const from = opts.fromRevision ?? (backwards ? 'end' : 'start');
      if (backwards) {
        events = events.slice().reverse();
        if (typeof from === 'bigint') events = events.filter((r) => r.revision <= from);
      } else if (typeof from === 'bigint') {
        events = events.filter((r) => r.revision >= from);
      } else if (from === 'end') {
        events = [];
      }
      for (const r of events.slice(0, Number(opts.maxCount ?? Number.MAX_SAFE_INTEGER))) yield resolve(r);
    })();
  }

  readAll(opts: { fromPosition?: unknown; direction?: string; maxCount?: number | bigint; filter?: { regex?: string } } = {}) {
    const log = this.log;
    return (async function* () {
      const backwards = opts.direction === 'backwards';
      const from = opts.fromPosition ?? (backwards ? 'end' : 'start');
      let events = backwards ? log.slice().reverse() : log.slice();
      if (typeof from === 'object') {
        const p = (from as { commit: bigint }).commit;
        events = events.filter((r) => (backwards ? r.logPosition < p : r.logPosition >= p));
      } else if (from === (backwards ? 'start' : 'end')) {
        events = [];
      }
      const regex = opts.filter?.regex ? new RegExp(opts.filter.regex) : undefined;
      if (regex) events = events.filter((r) => regex.test(r.type));
      for (const r of events.slice(0, Number(opts.maxCount ?? Number.MAX_SAFE_INTEGER))) yield resolve(r);
    })();
  }

  subscribeToAll(opts: { fromPosition?: unknown; filter?: { regex?: string } } = {}, readable: { highWaterMark?: number } = {}) {
    const from = typeof opts.fromPosition === 'object' ? (opts.fromPosition as { commit: bigint }).commit : -1n;
    const regex = opts.filter?.regex ? new RegExp(opts.filter.regex) : undefined;
    const sub = Object.assign(new PassThrough({ objectMode: true, highWaterMark: readable.highWaterMark }), {
      from,
      regex,
      unsubscribe: async () => {
        this.subs.delete(sub);
        sub.end();
      },
    });
    this.subs.add(sub);
    setImmediate(() => {
      for (const r of this.log) if (r.logPosition > from && (!regex || regex.test(r.type))) sub.write(resolve(r));
    });
    return sub;
  }

  /** Breaks every live subscription, as a dropped connection would. */
  failSubscriptions(err: Error) {
    for (const sub of [...this.subs]) {
      this.subs.delete(sub);
      sub.emit('error', err);
    }
  }

  get liveSubscriptions() {
    return this.subs.size;
  }

  async dispose() {
    this.disposed = true;
  }

  private write(streamId: string, events: FakeEventData[]): FakeRecord {
    let revision = BigInt(this.log.filter((r) => r.streamId === streamId).length);
    let last!: FakeRecord;
    for (const e of events) {
      last = {
        streamId,
        id: e.id,
        type: e.type,
        revision: revision++,
        logPosition: (this.nextLogPosition += 137n),
        data: JSON.stringify(e.data),
        metadata: e.metadata === undefined ? undefined : JSON.stringify(e.metadata),
        created: new Date(),
      };
      this.log.push(last);
      for (const sub of this.subs) {
        const regex = (sub as unknown as { regex?: RegExp }).regex;
        if (!regex || regex.test(last.type)) setImmediate((r: FakeRecord) => sub.write(resolve(r)), last);
      }
    }
    return last;
  }
}

interface FakeEventData {
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
}

interface FakeRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  logPosition: bigint;
  data: string;
  metadata?: string;
  created: Date;
}

function resolve(r: FakeRecord) {
  return {
    event: {
      streamId: r.streamId,
      id: r.id,
      type: r.type,
      revision: r.revision,
      isJson: true,
      created: r.created,
      data: JSON.parse(r.data),
      metadata: r.metadata === undefined ? undefined : JSON.parse(r.metadata),
      position: { commit: r.logPosition, prepare: r.logPosition },
    },
    commitPosition: r.logPosition,
  };
}

function fakeStore(upcasters?: Upcasters) {
  const client = new FakeKurrentClient();
  return { client, store: new KurrentDbEventStore(client as unknown as KurrentDBClient, upcasters) };
}

const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

eventStoreContract('KurrentDB adapter over an in-memory client', async () => {
  const { store } = fakeStore();
  return { store, dispose: async () => undefined };
});

describe('KurrentDbEventStore mapping', () => {
  it('maps versions to KurrentDB stream states and back', () => {
    expect(toStreamState('any')).toBe('any');
    expect(toStreamState('no_stream')).toBe('no_stream');
    expect(toStreamState(0)).toBe('no_stream');
    expect(toStreamState(1)).toBe(0n);
    expect(toStreamState(7)).toBe(6n);
    expect(() => toStreamState(-1)).toThrow();
    expect(toVersion('no_stream')).toBe(0);
    expect(toVersion(0n)).toBe(1);
    expect(toVersion(6n)).toBe(7);
    expect(toVersion(-5n)).toBe(0);
  });

  it('stores the schema version beside the app metadata and takes it out on read', async () => {
    const { store } = fakeStore(new Upcasters().register('Renamed', 1, (d) => ({ name: d.title })));
    const s = `s-${randomUUID()}`;
    await store.append(s, [{ type: 'Renamed', data: { title: 'a' }, metadata: { actor: 'u1', correlationId: 'c1' } }], 'no_stream');
    await store.append(s, [{ type: 'Renamed', schemaVersion: 2, data: { name: 'b' } }], 1);
    const [first, second] = await store.readStream(s);
    expect(first).toMatchObject({ schemaVersion: 2, data: { name: 'a' }, metadata: { actor: 'u1', correlationId: 'c1' } });
    expect(first.metadata).not.toHaveProperty(SCHEMA_VERSION_KEY);
    expect(second).toMatchObject({ schemaVersion: 2, data: { name: 'b' }, metadata: {} });
    expect(fromKurrentMetadata(undefined)).toEqual({ metadata: {}, schemaVersion: 1 });
    expect(fromKurrentMetadata({ [SCHEMA_VERSION_KEY]: 3, x: 1 })).toEqual({ metadata: { x: 1 }, schemaVersion: 3 });
  });

  it('reads a stream from a version', async () => {
    const { store } = fakeStore();
    const s = `s-${randomUUID()}`;
    await store.append(s, ['A', 'B', 'C'].map((type) => ({ type, data: {} })), 'no_stream');
    expect((await store.readStream(s, { fromVersion: 2 })).map((e) => [e.type, e.streamVersion])).toEqual([
      ['B', 2],
      ['C', 3],
    ]);
    expect(await store.readStream(`missing-${randomUUID()}`)).toEqual([]);
  });

  it('skips system events and $-streams in readAll and headPosition', async () => {
    const { store } = fakeStore();
    expect(await store.headPosition()).toEqual(START);
    expect(await store.readAll(START, 10)).toEqual([]);
    await store.append('s1', [{ type: 'A', data: {} }], 'no_stream');
    const all = await store.readAll(START, 10);
    expect(all.map((e) => e.streamId)).toEqual(['s1']);
    expect(await store.headPosition()).toEqual(all[0].position);
  });

  it("keeps repeated 'any' appends of the same ids idempotent, and retries at another expected version", async () => {
    const { store } = fakeStore();
    const s = `s-${randomUUID()}`;
    const events = [
      { id: randomUUID(), type: 'A', data: {} },
      { id: randomUUID(), type: 'B', data: {} },
    ];
    const first = await store.append(s, events, 'any');
    expect(await store.append(s, events, 'any')).toEqual(first);
    expect(await store.append(s, events, 5)).toEqual(first);
    expect(await store.readStream(s)).toHaveLength(2);
    await expect(store.append(s, [events[0], { id: randomUUID(), type: 'C', data: {} }], 'any')).rejects.toMatchObject({
      actual: 2,
    });
  });

  it('delivers batches of at most batchSize, one at a time', async () => {
    const { store } = fakeStore();
    const from = await store.headPosition();
    const batches: string[][] = [];
    let inFlight = 0;
    let overlapped = false;
    const sub = store.subscribe(from, {
      batchSize: 2,
      onEvents: async (events) => {
        overlapped ||= ++inFlight > 1;
        batches.push(events.map((e) => e.type));
        await new Promise((r) => setTimeout(r, 10));
        inFlight--;
      },
    });
    await store.append('b', ['1', '2', '3', '4', '5'].map((type) => ({ type, data: {} })), 'no_stream');
    await until(() => batches.flat().length === 5);
    await sub.close();
    expect(batches.flat()).toEqual(['1', '2', '3', '4', '5']);
    expect(batches.every((b) => b.length >= 1 && b.length <= 2)).toBe(true);
    expect(overlapped).toBe(false);
  });

  it('resubscribes from the last delivered position after an error', async () => {
    const { client, store } = fakeStore();
    const seen: RecordedEvent[] = [];
    const errors: unknown[] = [];
    const sub = store.subscribe(START, { onEvents: async (events) => void seen.push(...events), onError: (err) => errors.push(err) });
    await store.append('r', [{ type: 'A', data: {} }, { type: 'B', data: {} }], 'no_stream');
    await until(() => seen.length === 2);
    client.failSubscriptions(new Error('connection lost'));
    await store.append('r', [{ type: 'C', data: {} }], 2);
    await until(() => seen.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    await sub.close();
    expect(seen.map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect(errors).toHaveLength(1);
    expect(client.liveSubscriptions).toBe(0);
  });

  it('redelivers a batch whose handler failed', async () => {
    const { store } = fakeStore();
    const seen: string[] = [];
    const errors: unknown[] = [];
    let fail = true;
    const sub = store.subscribe(START, {
      onEvents: async (events) => {
        if (fail) {
          fail = false;
          throw new Error('handler failed');
        }
        seen.push(...events.map((e) => e.type));
      },
      onError: (err) => errors.push(err),
    });
    await store.append('f', [{ type: 'A', data: {} }], 'no_stream');
    await until(() => seen.length === 1);
    await sub.close();
    expect(seen).toEqual(['A']);
    expect(errors).toHaveLength(1);
  });

  it('closes its subscriptions and the client', async () => {
    const { client, store } = fakeStore();
    store.subscribe(START, { onEvents: async () => undefined });
    await until(() => client.liveSubscriptions === 1);
    await store.close();
    expect(client.liveSubscriptions).toBe(0);
    expect(client.disposed).toBe(true);
  });
});

describe('BatchReader', () => {
  it('hands over what is buffered, up to the batch size, then ends', async () => {
    const stream = new PassThrough({ objectMode: true });
    const reader = new BatchReader<number>(stream, 3);
    [1, 2, 3, 4].forEach((n) => stream.write(n));
    expect(await reader.next()).toEqual([1, 2, 3]);
    expect(await reader.next()).toEqual([4]);
    setTimeout(() => stream.write(5), 5);
    expect(await reader.next()).toEqual([5]);
    stream.end();
    expect(await reader.next()).toBeUndefined();
    reader.dispose();
  });

  it('throws the stream error', async () => {
    const stream = new PassThrough({ objectMode: true });
    const reader = new BatchReader<number>(stream, 3);
    setTimeout(() => stream.emit('error', new Error('boom')), 5);
    await expect(reader.next()).rejects.toThrow('boom');
    reader.dispose();
    stream.emit('error', new Error('later errors are swallowed'));
  });
});
