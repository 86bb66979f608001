import type { Readable } from 'stream';
import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START as KURRENT_START,
  StreamNotFoundError,
  WrongExpectedVersionError as KurrentWrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@kurrent/kurrentdb-client';
import type { AppendStreamState, JSONType, ReadPosition } from '@kurrent/kurrentdb-client';
import { newEventId } from '@quire/platform/ids/ids';
import {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '../event-store.port';
import { comparePositions, Position, START } from '../position';
import { Upcasters } from '../upcasting';

/** The metadata key the schema version of `data` is stored under, next to the app's own metadata. */
export const SCHEMA_VERSION_KEY = '$schemaVersion';

/** Servers older than 22.6 report "no position" on stream reads as the largest u64. */
const NO_POSITION = (1n << 64n) - 1n;

/** The fields of a KurrentDB recorded event the adapter reads (stream reads and `$all` reads alike). */
export interface KurrentRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  isJson: boolean;
  created: Date;
  data: unknown;
  metadata?: unknown;
  position?: { commit: bigint; prepare: bigint };
}

/** A resolved event as both `readStream`/`readAll` and `subscribeToAll` yield it (links are never resolved here). */
export interface KurrentResolved {
  event?: KurrentRecord;
  link?: unknown;
  commitPosition?: bigint;
}

/**
 * The event store over KurrentDB (formerly EventStoreDB), selected by a `kurrentdb://` (or `esdb://`)
 * connection string. Mapping:
 * - versions: the port's 1-based stream version N is KurrentDB's 0-based revision N-1; version 0 (empty)
 *   is `NO_STREAM`.
 * - positions: KurrentDB's `$all` commit/prepare positions, as they are; ordered the same way.
 * - schema version: stored in the event metadata under `$schemaVersion`, beside the app metadata, and
 *   taken out again on read.
 * - `$all` reads and subscriptions skip system events (`$`-prefixed types) and `$`-prefixed streams.
 */
export class KurrentDbEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;

  /** Prefer {@link KurrentDbEventStore.connect}; the client is injectable for tests. */
  constructor(
    private readonly client: KurrentDBClient,
    private readonly upcasters: Upcasters = new Upcasters(),
  ) {}

  /** Connects and checks the server answers (and lets this user read `$all`) before resolving. */
  static async connect(connectionString: string, upcasters?: Upcasters): Promise<KurrentDbEventStore> {
    const client = KurrentDBClient.connectionString(connectionString);
    const store = new KurrentDbEventStore(client, upcasters);
    try {
      await store.headPosition();
    } catch (err) {
      await client.dispose().catch(() => undefined);
      throw err;
    }
    return store;
  }

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const callerIds = events.every((e) => e.id !== undefined);
    const ids = events.map((e) => e.id ?? newEventId());

    // KurrentDB only de-duplicates `any` appends on a best-effort basis (a bounded cache): look first.
    if (expectedVersion === 'any' && callerIds) {
      const existing = await this.findExisting(streamId, ids);
      if (existing.result) return existing.result;
      if (existing.some) throw new WrongExpectedVersionError(streamId, expectedVersion, existing.currentVersion);
    }

    const eventData = events.map((e, i) =>
      jsonEvent({
        id: ids[i],
        type: e.type,
        // JSON.stringify takes any JSON value; the client's type only names objects, arrays and strings.
        data: (e.data ?? null) as JSONType,
        metadata: { ...(e.metadata ?? {}), [SCHEMA_VERSION_KEY]: e.schemaVersion ?? 1 },
      }),
    );

    let result: Awaited<ReturnType<KurrentDBClient['appendToStream']>>;
    try {
      result = await this.client.appendToStream(streamId, eventData, { streamState: toStreamState(expectedVersion) });
    } catch (err) {
      if (!isWrongExpectedVersion(err)) throw err;
      // A retry of an append that already landed is not a conflict.
      if (callerIds) {
        const existing = await this.findExisting(streamId, ids);
        if (existing.result) return existing.result;
      }
      throw new WrongExpectedVersionError(streamId, expectedVersion, toVersion(err.actualState));
    }
    if (!result.success) {
      // Only with `throwOnAppendFailure=false` in the connection string; the reported revision is not reliable.
      if (callerIds) {
        const existing = await this.findExisting(streamId, ids);
        if (existing.result) return existing.result;
      }
      throw new WrongExpectedVersionError(streamId, expectedVersion, await this.currentVersion(streamId));
    }

    const nextVersion = Number(result.nextExpectedRevision) + 1;
    // The server reports the last event's log position; it reports none for an idempotent (repeated) append.
    const position = validPosition(result.position) ?? (await this.positionAt(streamId, result.nextExpectedRevision));
    return { nextVersion, position };
  }

  async readStream(streamId: string, opts: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    const from = opts.fromVersion ?? 1;
    const out: RecordedEvent[] = [];
    try {
      const events = this.client.readStream(streamId, {
        fromRevision: from > 1 ? BigInt(from - 1) : KURRENT_START,
        direction: FORWARDS,
        resolveLinkTos: false,
      });
      for await (const resolved of events as AsyncIterable<KurrentResolved>) {
        if (resolved.event) out.push(this.toRecorded(resolved.event, streamPosition(resolved)));
      }
    } catch (err) {
      if (isStreamNotFound(err)) return [];
      throw err;
    }
    return out;
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (limit <= 0) return out;
    let cursor = from;
    while (out.length < limit) {
      // Reading `$all` forwards from a position includes the event at it: ask for one more.
      const want = limit - out.length + 1;
      let seen = 0;
      let last: Position | undefined;
      const page = this.client.readAll({
        fromPosition: toReadPosition(cursor),
        direction: FORWARDS,
        maxCount: want,
        resolveLinkTos: false,
        filter: excludeSystemEvents(),
      });
      for await (const resolved of page as AsyncIterable<KurrentResolved>) {
        seen++;
        const position = validPosition(resolved.event?.position);
        if (!position) continue;
        last = position;
        if (!isAfter(position, cursor) || !isUserEvent(resolved)) continue;
        out.push(this.toRecorded(resolved.event!, position));
        if (out.length >= limit) break;
      }
      // A short page is the end of `$all`; a full one may have held events filtered out here.
      if (out.length >= limit || seen < want || !last || !isAfter(last, cursor)) break;
      cursor = last;
    }
    return out;
  }

  async headPosition(): Promise<Position> {
    let cursor: ReadPosition = END;
    const pageSize = 100;
    for (;;) {
      let seen = 0;
      let last: Position | undefined;
      const page = this.client.readAll({
        fromPosition: cursor,
        direction: BACKWARDS,
        maxCount: pageSize,
        resolveLinkTos: false,
        filter: excludeSystemEvents(),
      });
      for await (const resolved of page as AsyncIterable<KurrentResolved>) {
        seen++;
        const position = validPosition(resolved.event?.position);
        if (!position) continue;
        if (cursor !== END && comparePositions(position, cursor as Position) >= 0) continue;
        last = position;
        if (isUserEvent(resolved)) return position;
      }
      if (seen < pageSize || !last) return START;
      cursor = last;
    }
  }

  subscribe(from: Position, opts: SubscribeOptions): Subscription {
    const batchSize = Math.max(1, opts.batchSize ?? 100);
    let position = from;
    let closed = false;
    let reader: BatchReader<KurrentResolved> | undefined;
    let current: { unsubscribe(): Promise<void> } | undefined;
    let wake: (() => void) | undefined;
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });

    const run = async () => {
      let failures = 0;
      while (!closed) {
        const sub = this.client.subscribeToAll(
          { fromPosition: toReadPosition(position), resolveLinkTos: false, filter: excludeSystemEvents() },
          { highWaterMark: batchSize },
        );
        const batches = new BatchReader<KurrentResolved>(sub, batchSize);
        current = sub;
        reader = batches;
        try {
          for (;;) {
            const batch = await batches.next();
            if (!batch) break;
            const events: RecordedEvent[] = [];
            for (const resolved of batch) {
              const p = validPosition(resolved.event?.position);
              // Subscriptions start after `position`; the check also drops anything seen before a resubscribe.
              if (!p || !isAfter(p, position) || !isUserEvent(resolved)) continue;
              events.push(this.toRecorded(resolved.event!, p));
            }
            if (events.length === 0) continue;
            await opts.onEvents(events);
            position = events[events.length - 1].position;
            failures = 0;
          }
          if (closed) break;
          throw new Error('KurrentDB subscription to $all ended');
        } catch (err) {
          if (closed) break;
          opts.onError?.(err);
          failures++;
          await sleep(Math.min(250 * 2 ** Math.min(failures - 1, 6), 10_000));
        } finally {
          batches.dispose();
          current = undefined;
          await sub.unsubscribe().catch(() => undefined);
        }
      }
    };
    const running = run();

    const subscription: Subscription = {
      close: async () => {
        if (closed) return;
        closed = true;
        reader?.stop();
        wake?.();
        await current?.unsubscribe().catch(() => undefined);
        await running;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }

  /** The stream's current version (0 when it does not exist). */
  private async currentVersion(streamId: string): Promise<number> {
    try {
      const last = this.client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1 });
      for await (const resolved of last as AsyncIterable<KurrentResolved>) {
        if (resolved.event) return Number(resolved.event.revision) + 1;
      }
      return 0;
    } catch (err) {
      if (isStreamNotFound(err)) return 0;
      throw err;
    }
  }

  /** The position of the event at a (0-based) revision, for appends the server answered without one. */
  private async positionAt(streamId: string, revision: bigint): Promise<Position> {
    const events = this.client.readStream(streamId, { fromRevision: revision, direction: FORWARDS, maxCount: 1 });
    for await (const resolved of events as AsyncIterable<KurrentResolved>) {
      const position = streamPosition(resolved);
      if (position) return position;
    }
    // Servers before 22.6 report no positions on stream reads: the head is at or after the event.
    return this.headPosition();
  }

  /** Whether all (or some) of `ids` are already in the stream, for idempotent appends. */
  private async findExisting(
    streamId: string,
    ids: string[],
  ): Promise<{ result?: AppendResult; some: boolean; currentVersion: number }> {
    const wanted = new Set(ids.map((id) => id.toLowerCase()));
    const found: { revision: bigint; position?: Position }[] = [];
    let currentVersion = 0;
    try {
      const events = this.client.readStream(streamId, { fromRevision: KURRENT_START, direction: FORWARDS });
      for await (const resolved of events as AsyncIterable<KurrentResolved>) {
        if (!resolved.event) continue;
        currentVersion = Number(resolved.event.revision) + 1;
        if (wanted.delete(resolved.event.id.toLowerCase())) {
          found.push({ revision: resolved.event.revision, position: streamPosition(resolved) });
        }
      }
    } catch (err) {
      if (!isStreamNotFound(err)) throw err;
    }
    if (found.length === 0 || wanted.size > 0) return { some: found.length > 0, currentVersion };
    const last = found[found.length - 1];
    return {
      result: {
        nextVersion: Number(last.revision) + 1,
        position: last.position ?? (await this.positionAt(streamId, last.revision)),
      },
      some: true,
      currentVersion,
    };
  }

  private toRecorded(event: KurrentRecord, position: Position | undefined): RecordedEvent {
    const { metadata, schemaVersion } = fromKurrentMetadata(event.metadata);
    return this.upcasters.apply({
      id: event.id,
      streamId: event.streamId,
      streamVersion: Number(event.revision) + 1,
      position: position ?? START,
      type: event.type,
      schemaVersion,
      data: fromKurrentData(event),
      metadata,
      recordedAt: event.created,
    });
  }
}

/** The port's expected version as KurrentDB's stream state: version N (1-based) is revision N-1. */
export function toStreamState(expected: ExpectedVersion): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream' || expected === 0) return NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0) throw new Error(`Not a stream version: ${expected}`);
  return BigInt(expected - 1);
}

/** KurrentDB's actual stream state (`no_stream` or a 0-based revision) as the port's version. */
export function toVersion(state: bigint | string | undefined): number {
  if (typeof state !== 'bigint' || state < 0n) return 0; // no_stream, or a deleted (-5) / tombstoned (-6) stream
  return Number(state) + 1;
}

export function toReadPosition(p: Position): ReadPosition {
  return p.commit === 0n && p.prepare === 0n ? KURRENT_START : { commit: p.commit, prepare: p.prepare };
}

/** Strictly after `from`; at START, everything is. */
function isAfter(p: Position, from: Position): boolean {
  return (from.commit === 0n && from.prepare === 0n) || comparePositions(p, from) > 0;
}

function validPosition(p: { commit: bigint; prepare: bigint } | undefined): Position | undefined {
  if (!p || p.commit < 0n || p.prepare < 0n || p.commit === NO_POSITION || p.prepare === NO_POSITION) return undefined;
  return { commit: p.commit, prepare: p.prepare };
}

function streamPosition(resolved: KurrentResolved): Position | undefined {
  const p = validPosition(resolved.event?.position);
  if (p) return p;
  const c = resolved.commitPosition;
  return c !== undefined && c >= 0n && c !== NO_POSITION ? { commit: c, prepare: c } : undefined;
}

/** Not a system event (`$`-prefixed type, links `$>` included) and not in a system (`$`-prefixed) stream. */
export function isUserEvent(resolved: KurrentResolved): boolean {
  const e = resolved.event;
  return !!e && !e.type.startsWith('$') && !e.streamId.startsWith('$');
}

/** The app metadata and schema version out of the stored metadata. */
export function fromKurrentMetadata(raw: unknown): { metadata: EventMetadata; schemaVersion: number } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || raw instanceof Uint8Array) {
    return { metadata: {}, schemaVersion: 1 };
  }
  const { [SCHEMA_VERSION_KEY]: version, ...metadata } = raw as Record<string, unknown>;
  const schemaVersion = typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : 1;
  return { metadata: metadata as EventMetadata, schemaVersion };
}

/** JSON events arrive parsed; anything else written by another producer is parsed when it is JSON. */
function fromKurrentData(event: KurrentRecord): unknown {
  if (event.isJson || !(event.data instanceof Uint8Array)) return event.data;
  if (event.data.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(event.data).toString('utf8'));
  } catch {
    return event.data;
  }
}

function isWrongExpectedVersion(err: unknown): err is KurrentWrongExpectedVersionError {
  return (
    err instanceof KurrentWrongExpectedVersionError ||
    (err as { type?: unknown } | null)?.type === ErrorType.WRONG_EXPECTED_VERSION
  );
}

function isStreamNotFound(err: unknown): boolean {
  return err instanceof StreamNotFoundError || (err as { type?: unknown } | null)?.type === ErrorType.STREAM_NOT_FOUND;
}

/**
 * Takes what an object-mode stream has buffered, up to `size` at a time, and waits when it has nothing.
 * The caller awaits each batch before asking for the next, so back-pressure reaches the server.
 */
export class BatchReader<T> {
  private done = false;
  private failure: { err: unknown } | undefined;
  private waiter: (() => void) | undefined;
  private readonly onReadable = () => this.wake();
  private readonly onEnd = () => {
    this.done = true;
    this.wake();
  };
  private readonly onError = (err: unknown) => {
    this.failure ??= { err };
    this.wake();
  };

  constructor(
    private readonly stream: Readable,
    private readonly size: number,
  ) {
    stream.on('readable', this.onReadable);
    stream.on('end', this.onEnd);
    stream.on('close', this.onEnd);
    stream.on('error', this.onError);
  }

  /** The next batch, or undefined once the stream has ended or been stopped; throws the stream's error. */
  async next(): Promise<T[] | undefined> {
    for (;;) {
      if (this.failure) throw this.failure.err;
      if (this.done) return undefined;
      const batch: T[] = [];
      let item: T | null;
      while (batch.length < this.size && (item = this.stream.read() as T | null) !== null) batch.push(item);
      if (batch.length > 0) return batch;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  stop(): void {
    this.done = true;
    this.wake();
  }

  /** Detaches; a later 'error' from the stream is swallowed rather than crashing the process. */
  dispose(): void {
    this.stop();
    this.stream.off('readable', this.onReadable);
    this.stream.off('end', this.onEnd);
    this.stream.off('close', this.onEnd);
    this.stream.off('error', this.onError);
    this.stream.on('error', () => undefined);
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}
