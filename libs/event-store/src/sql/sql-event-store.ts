import { EventEmitter } from 'events';
import { Db } from '@quire/platform/db/db';
import { newEventId } from '@quire/platform/ids/ids';
import {
  AppendResult,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedVersionError,
} from '../event-store.port';
import { Position, START } from '../position';
import { Upcasters } from '../upcasting';
import { APPEND_ONE_SQL, APPEND_SQL, EVENT_STORE_SCHEMA } from './event-store.schema';

interface EventRow {
  event_id: string;
  stream_id: string;
  stream_version: number;
  tx: string;
  global_position: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: any;
  recorded_ms: number;
}

/** What an append statement tells: where the stream was, how many events went in, and the last one's position. */
interface AppendRow {
  version: number;
  appended: number;
  last_position: string | null;
  tx: string | null;
}

/**
 * `recorded_at` as milliseconds since the epoch (a float8 the drivers parse as a number): parsing
 * the timestamp text was a tenth of the client's time reading `$all` in a replay. Date keeps
 * milliseconds either way.
 */
const COLUMNS = `event_id, stream_id, stream_version, transaction_id::text AS tx, global_position::text AS global_position,
  type, schema_version, data, metadata, (extract(epoch FROM recorded_at) * 1000)::float8 AS recorded_ms`;

/**
 * Visible to readers: only transactions older than every one still running that could append here.
 * A sub-select, so the horizon is computed once per statement whatever plan is chosen.
 */
const VISIBLE = `transaction_id < (SELECT quire_read_horizon())`;

/** How long after an append other processes are woken, and how often at most (notifyOtherProcesses). */
const NOTIFY_DELAY_MS = 2;
const NOTIFY_INTERVAL_MS = 10;

/** The event store over PostgreSQL (`pg`) or embedded PGlite: the same SQL serves both. */
export class SqlEventStore implements EventStore {
  /** In-process wake-up for subscribers, on top of LISTEN/NOTIFY across processes. */
  private readonly appended = new EventEmitter();

  constructor(
    private readonly db: Db,
    private readonly upcasters: Upcasters = new Upcasters(),
  ) {
    this.appended.setMaxListeners(0);
  }

  static async create(db: Db, upcasters?: Upcasters): Promise<SqlEventStore> {
    await db.exec(EVENT_STORE_SCHEMA);
    return new SqlEventStore(db, upcasters);
  }

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const ids = events.map((e) => e.id ?? newEventId());
    const expected = expectedVersion === 'any' ? null : expectedVersion === 'no_stream' ? 0 : expectedVersion;
    let row: AppendRow;
    for (;;) {
      try {
        row = await this.insert(streamId, expected, events, ids);
        break;
      } catch (err: any) {
        if (err?.code !== '23505') throw err;
        const constraint = String(err?.constraint ?? err?.message);
        if (constraint.includes('event_id')) return this.existingAppend(streamId, ids, expectedVersion);
        if (!constraint.includes('stream_version')) throw err;
        // Another writer appended to the stream since this one read its version. With no
        // expected version that is no conflict: read the version again.
        if (expected !== null) return this.existingAppend(streamId, ids, expectedVersion);
      }
    }
    if (row.appended === 0) {
      // A retry of an append that already landed is not a conflict.
      const dup = await this.findExisting(streamId, ids);
      if (dup) return dup;
      throw new WrongExpectedVersionError(streamId, expectedVersion, Number(row.version));
    }
    this.appended.emit('appended');
    this.notifyOtherProcesses();
    return { nextVersion: Number(row.version) + row.appended, position: { commit: BigInt(row.tx!), prepare: BigInt(row.last_position!) } };
  }

  /**
   * Runs the append statement: APPEND_ONE_SQL for one event (its row, or none when the expected
   * version is stale: then where the stream is), APPEND_SQL for more.
   */
  private async insert(streamId: string, expected: number | null, events: NewEvent[], ids: string[]): Promise<AppendRow> {
    if (events.length === 1) {
      const e = events[0];
      const params = [streamId, expected, ids[0], e.type, e.schemaVersion ?? 1, JSON.stringify(e.data ?? null), JSON.stringify(e.metadata ?? {})];
      const r = await this.db.query<{ version: number; last_position: string; tx: string }>(APPEND_ONE_SQL, params, { name: 'quire_append_one' });
      const inserted = r.rows[0];
      if (inserted) return { version: Number(inserted.version) - 1, appended: 1, last_position: inserted.last_position, tx: inserted.tx };
      return { version: await this.streamVersion(streamId), appended: 0, last_position: null, tx: null };
    }
    const batch = JSON.stringify(events.map((e, i) => [ids[i], e.type, e.schemaVersion ?? 1, e.data ?? null, e.metadata ?? {}]));
    return (await this.db.query<AppendRow>(APPEND_SQL, [streamId, expected, batch], { name: 'quire_append' })).rows[0];
  }

  private notifyPending = false;
  private notifying = false;
  private lastNotify = 0;

  /**
   * Wakes subscribers in other processes. Sent after the append commits (a NOTIFY inside the
   * append would serialise every commit on the cluster-wide notification queue lock), coalesced
   * to one in flight at a time, and committed without waiting for the WAL flush: a NOTIFY takes
   * a transaction id, so a synchronous commit would hold the queue lock through an fsync, and
   * every notifying session in the cluster would queue behind it. A wake-up lost in a crash
   * costs nothing (subscribers also poll).
   * The first append after a quiet spell is announced 2 ms after it; under a steady stream of
   * appends, one wake-up per NOTIFY_INTERVAL_MS: each is a transaction of its own, about the
   * server's CPU of an append, and back to back they came one per 15 single-event appends of 16
   * writers (one per 29 with the interval, counted in the same run). A subscriber that is being
   * woken that often is reading anyway.
   */
  private notifyOtherProcesses(): void {
    if (this.db.kind === 'pglite') return;
    this.notifyPending = true;
    if (this.notifying) return;
    this.notifying = true;
    setTimeout(
      () => {
        this.notifyPending = false;
        this.lastNotify = Date.now();
        this.db
          .query(`SELECT set_config('synchronous_commit', 'off', true), pg_notify('quire_events', '')`, [], { name: 'quire_notify' })
          .catch(() => undefined)
          .finally(() => {
            this.notifying = false;
            if (this.notifyPending) this.notifyOtherProcesses();
          });
      },
      Math.max(NOTIFY_DELAY_MS, this.lastNotify + NOTIFY_INTERVAL_MS - Date.now()),
    ).unref();
  }

  private async existingAppend(streamId: string, ids: string[], expected: ExpectedVersion): Promise<AppendResult> {
    const dup = await this.findExisting(streamId, ids);
    if (dup) return dup;
    throw new WrongExpectedVersionError(streamId, expected, await this.streamVersion(streamId));
  }

  private async findExisting(streamId: string, ids: string[]): Promise<AppendResult | undefined> {
    const r = await this.db.query<{ stream_id: string; stream_version: number; tx: string; global_position: string }>(
      `SELECT stream_id, stream_version, transaction_id::text AS tx, global_position::text AS global_position
         FROM quire_events WHERE event_id = ANY($1::uuid[]) ORDER BY stream_version`,
      [ids],
    );
    if (r.rows.length !== ids.length || r.rows.some((x) => x.stream_id !== streamId)) return undefined;
    const last = r.rows[r.rows.length - 1];
    return { nextVersion: Number(last.stream_version), position: { commit: BigInt(last.tx), prepare: BigInt(last.global_position) } };
  }

  private async streamVersion(streamId: string): Promise<number> {
    const r = await this.db.query<{ version: number }>(`SELECT coalesce(max(stream_version), 0) AS version FROM quire_events WHERE stream_id = $1`, [streamId]);
    return Number(r.rows[0].version);
  }

  async readStream(streamId: string, opts: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    const r = await this.db.query<EventRow>(
      `SELECT ${COLUMNS} FROM quire_events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
      [streamId, opts.fromVersion ?? 1],
    );
    return r.rows.map((row) => this.toRecorded(row));
  }

  async readAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const r = await this.db.query<EventRow>(
      `SELECT ${COLUMNS} FROM quire_events
        WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) AND ${VISIBLE}
        ORDER BY quire_events.transaction_id, quire_events.global_position LIMIT $3`,
      [from.commit.toString(), from.prepare.toString(), limit],
    );
    return r.rows.map((row) => this.toRecorded(row));
  }

  async headPosition(): Promise<Position> {
    const r = await this.db.query<{ tx: string; global_position: string }>(
      `SELECT transaction_id::text AS tx, global_position::text AS global_position FROM quire_events
        WHERE ${VISIBLE} ORDER BY quire_events.transaction_id DESC, quire_events.global_position DESC LIMIT 1`,
    );
    const row = r.rows[0];
    return row ? { commit: BigInt(row.tx), prepare: BigInt(row.global_position) } : START;
  }

  subscribe(from: Position, opts: SubscribeOptions): Subscription {
    const batchSize = opts.batchSize ?? 500;
    let position = from;
    let closed = false;
    let wake: (() => void) | undefined;
    let pending = false;
    const signal = () => {
      pending = true;
      wake?.();
    };
    this.appended.on('appended', signal);
    const unlisten = this.db.listen('quire_events', signal).catch((err) => {
      opts.onError?.(err);
      return async () => undefined;
    });

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(done, ms);
        function done() {
          clearTimeout(t);
          wake = undefined;
          resolve();
        }
        wake = done;
        if (pending || closed) done();
      });

    const loop = async () => {
      let idleRounds = 0;
      while (!closed) {
        pending = false;
        try {
          const events = await this.readAll(position, batchSize);
          if (events.length > 0) {
            await opts.onEvents(events);
            position = events[events.length - 1].position;
            idleRounds = 0;
            continue;
          }
        } catch (err) {
          opts.onError?.(err);
          await sleep(1000);
          continue;
        }
        // Just after a wake-up, an event may still sit behind an older in-flight transaction:
        // look again soon, then back off to an idle poll (NOTIFY wakes us before that).
        idleRounds++;
        await sleep(idleRounds <= 3 ? 5 * idleRounds : 1000);
      }
    };
    const running = loop();

    return {
      close: async () => {
        closed = true;
        wake?.();
        this.appended.off('appended', signal);
        await running;
        await (await unlisten)();
      },
    };
  }

  async close(): Promise<void> {
    this.appended.removeAllListeners();
  }

  private toRecorded(row: EventRow): RecordedEvent {
    return this.upcasters.apply({
      id: row.event_id,
      streamId: row.stream_id,
      streamVersion: Number(row.stream_version),
      position: { commit: BigInt(row.tx), prepare: BigInt(row.global_position) },
      type: row.type,
      schemaVersion: row.schema_version,
      data: row.data,
      metadata: row.metadata ?? {},
      recordedAt: new Date(row.recorded_ms),
    });
  }
}
