import { randomUUID } from 'crypto';
import { performance } from 'perf_hooks';
import { LRUCache } from 'lru-cache';
import { Db } from '@quire/platform/db/db';
import type { Logger } from '@quire/platform/logging/logger';
import { EventStore, RecordedEvent, Subscription } from '@quire/event-store/event-store.port';
import { comparePositions, formatPosition, parsePosition, Position, START } from '@quire/event-store/position';
import { Projector, ProjectionTimeoutError } from './projector';

/**
 * In-memory caches of read-model rows, evicted by the events that change them.
 *
 * A `ReadCache` keeps values loaded from read models, each with tags (the ids it depends on:
 * a space, an organization, a user...). The process's `ReadCacheFollower` follows `$all` (the
 * event store's subscription, woken across processes by LISTEN/NOTIFY); for each batch it asks
 * every cache which tags the events touch, waits until the read models that cache reads have
 * applied the batch, and only then evicts: a value loaded after the eviction is never older
 * than the read model was when the event was applied. A load that was in flight while an
 * eviction happened is returned but not kept (it may have read the read model before the event).
 *
 * Read-your-writes across processes: every follower records in `quire_read_cache_followers` how
 * far it has evicted; `CommandExecutor` waits, after the read models, until every follower in that
 * table has evicted through the command's position. So once a command answers, no process serves
 * a cached value older than its events, exactly as no process reads a read model older than them.
 *
 * A process that dies without closing must not hold every command for good, so a follower whose
 * heartbeat is older than LIVE_MS is removed from the table (fenced) by the others, and only that
 * removal stops commands waiting for it: never a waiter's own impression that it has not heard
 * from a follower lately (under load, a waiter's event loop or pool can be late, not the follower).
 * A follower that is alive but was slow (a stalled event loop, a starved pool) may be fenced while
 * behind, and then commands answer without it; so it answers from its caches only under a lease,
 * LEASE_MS from the sending of its last heartbeat that landed (shorter than LIVE_MS: it stops
 * before anyone may fence it), and when a heartbeat finds it fenced it joins again, then empties
 * its caches, before answering from them again.
 */

/** Evicts every entry of a cache, whatever its tags. */
export const ALL_TAGS: unique symbol = Symbol('all tags');
export type EvictedTags = Iterable<string> | typeof ALL_TAGS;

export interface ReadCacheOptions {
  /** For logs and the follower's waits. */
  name: string;
  /** Entries kept at most (least recently used go first). */
  max: number;
  /** Projections (by name) whose tables the loads read: eviction waits until they have applied an event. */
  readModels: readonly string[];
  /** The tags an event may change; `idsNamedBy` unless given. */
  tagsOf?(event: RecordedEvent): EvictedTags;
}

/**
 * The ids an event names: its stream's aggregate id (`space-<id>` -> `<id>`; for a prefix with a
 * dash, `change-request-<id>`, what follows the last dash as well) and every top-level string
 * field of its data whose name ends in `Id` (`spaceId`, `organizationId`, `userId`...).
 */
export function idsNamedBy(event: RecordedEvent): string[] {
  const ids: string[] = [];
  const first = event.streamId.indexOf('-');
  const last = event.streamId.lastIndexOf('-');
  if (first > 0) ids.push(event.streamId.slice(first + 1));
  if (last > first) ids.push(event.streamId.slice(last + 1));
  const data = event.data as Record<string, unknown> | null;
  if (data && typeof data === 'object') {
    for (const [field, value] of Object.entries(data)) if (typeof value === 'string' && field.endsWith('Id')) ids.push(value);
  }
  return ids;
}

interface Entry<V> {
  value: V;
  tags: readonly string[];
}

export class ReadCache<V extends {}> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly byTag = new Map<string, Set<string>>();
  /** Bumped by every eviction: a load that saw it change may hold what the eviction removed. */
  private generation = 0;

  constructor(
    readonly options: ReadCacheOptions,
    private readonly follower: ReadCacheFollower,
  ) {
    this.entries = new LRUCache<string, Entry<V>>({
      max: options.max,
      dispose: (entry, key) => this.untag(key, entry.tags),
    });
    follower.register(this);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The value kept under `key`, if any (none outside the follower's lease, as for `get`): what
   * `get` answers at once when it holds one, for a caller whose warm path should make no promise.
   */
  cached(key: string): V | undefined {
    return this.follower.serving() ? this.entries.get(key)?.value : undefined;
  }

  /**
   * The cached value of `key`, or what `load` answers (kept with its tags when no eviction
   * happened meanwhile). `undefined` from `load` is answered and not kept. Outside the follower's
   * lease (it may have been fenced: commands may have answered without waiting for it) every
   * call loads, and keeps nothing.
   */
  async get(key: string, load: () => Promise<{ value: V; tags: readonly string[] } | undefined>): Promise<V | undefined> {
    const serving = this.follower.serving();
    const hit = serving ? this.entries.get(key) : undefined;
    if (hit) return hit.value;
    const generation = this.generation;
    const loaded = await load();
    if (loaded && serving && generation === this.generation && this.follower.serving()) {
      this.entries.set(key, loaded);
      for (const tag of loaded.tags) {
        let keys = this.byTag.get(tag);
        if (!keys) this.byTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
    }
    return loaded?.value;
  }

  /** Called by the follower once the read models have applied the events that named `tags`. */
  evict(tags: EvictedTags): void {
    this.generation++;
    if (tags === ALL_TAGS) {
      this.entries.clear();
      this.byTag.clear();
      return;
    }
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      for (const key of [...keys]) this.entries.delete(key);
    }
  }

  private untag(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byTag.delete(tag);
    }
  }
}

const FOLLOWERS_SCHEMA = `
CREATE TABLE IF NOT EXISTS quire_read_cache_followers (
  follower text PRIMARY KEY,
  position text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now());
`;
const CHANNEL = 'quire_read_cache';
/**
 * A follower whose heartbeat is older than this is fenced (removed from the table): a process
 * killed without closing holds other processes' commands about this long.
 */
export const LIVE_MS = 5_000;
/**
 * How long after sending a heartbeat that landed a follower answers from its caches. A fence needs
 * the follower's last heartbeat (written at or after its sending) to be LIVE_MS old by the
 * database's clock; the lease runs out a second before that by the follower's (only the rates of
 * the two clocks matter, not their settings).
 */
const LEASE_MS = LIVE_MS - 1_000;
const HEARTBEAT_MS = 1_000;

interface Waiter {
  position: Position;
  resolve(): void;
}

/**
 * One per process: follows `$all` for the process's read caches and tells every process how
 * far it has evicted; answers `waitFor(position)` once every live follower has got there.
 */
export class ReadCacheFollower {
  readonly id = randomUUID();
  private readonly caches: ReadCache<any>[] = [];
  /**
   * What this process knows of every follower's position (its own included), with when it last
   * heard of it (a count of `heard`); one leaves only when a read of the table no longer holds it.
   */
  private readonly known = new Map<string, { position: Position; heard: number }>();
  private heardCount = 0;
  private waiters: Waiter[] = [];
  private subscription?: Subscription;
  private stopListening?: () => Promise<void>;
  private timer?: NodeJS.Timeout;
  private started?: Promise<void>;
  private stopped = false;
  private position: Position = START;
  /** performance.now() until which this follower's caches may answer (see LEASE_MS). */
  private leaseUntil = 0;
  /** Set while joining the table: nothing is answered from the caches until they are emptied. */
  private joining?: Promise<void>;
  private joined = false;

  constructor(
    private readonly db: Db,
    private readonly store: EventStore,
    private readonly projector: Projector,
    private readonly logger?: Logger,
  ) {}

  /** Listens to the other followers (every process whose commands must wait for them). */
  async observe(): Promise<void> {
    await this.db.exec(FOLLOWERS_SCHEMA);
    this.stopListening = await this.db.listen(CHANNEL, (payload) => {
      const i = payload.lastIndexOf(':');
      if (i > 0) this.heard(payload.slice(0, i), parsePosition(payload.slice(i + 1)));
    });
    await this.refresh();
    this.timer = setInterval(() => void this.tick().catch((err) => this.logger?.warn({ err }, 'read caches: heartbeat failed')), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** True while this follower's caches may answer: within its lease, and not joining again after a fence. */
  serving(): boolean {
    return !this.joining && performance.now() < this.leaseUntil;
  }

  /** Caches register at construction; the first one starts following. */
  register(cache: ReadCache<any>): void {
    this.caches.push(cache);
    this.started ??= this.follow().catch((err) => this.logger?.error({ err }, 'read caches: following events failed to start'));
  }

  /**
   * Resolves once every follower in the table has evicted through `position` (read-your-writes for
   * caches). Called once the read models have applied the events: the table is read from then on,
   * so a follower that joined before is waited for, and one that joins after empties its caches
   * after the read models hold the events (what it holds from then on cannot predate them).
   */
  async waitFor(position: Position, timeoutMs: number): Promise<void> {
    await this.refresh();
    if (this.reached(position)) return;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new ProjectionTimeoutError(this.behind(position).map((id) => `read caches of ${id}`)));
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.started;
    await this.subscription?.close();
    await this.stopListening?.();
    if (this.caches.length) await this.db.query(`DELETE FROM quire_read_cache_followers WHERE follower = $1`, [this.id]).catch(() => undefined);
  }

  /**
   * From the slowest read model on: an event it has not applied yet may already be behind a
   * value loaded now, so it must still evict. Registered before the first value is cached, so
   * commands wait for this process from then on.
   */
  private async follow(): Promise<void> {
    let from: Position | undefined;
    for (const s of await this.projector.status()) {
      const p = parsePosition(s.position);
      if (!from || comparePositions(p, from) < 0) from = p;
    }
    this.position = from ?? START;
    await this.join();
    this.subscription = this.store.subscribe(this.position, {
      batchSize: 1000,
      onEvents: (events) => this.evict(events),
      onError: (err) => this.logger?.error({ err }, 'read caches: reading events failed'),
    });
  }

  private async evict(events: RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1].position;
    for (const cache of this.caches) {
      const types = new Set<string>();
      let all = false;
      const tags = new Set<string>();
      for (const event of events) {
        const t = cache.options.tagsOf ? cache.options.tagsOf(event) : idsNamedBy(event);
        if (t === ALL_TAGS) all = true;
        else for (const tag of t) tags.add(tag);
        types.add(event.type);
      }
      // Only the read models the cache loads from that apply these events: not every projection
      // of the same events (the search index of a large import takes seconds, and every command's
      // read-your-writes waits for this follower).
      const applying = this.projector.projections
        .filter((p) => cache.options.readModels.includes(p.name) && p.handles.some((type) => types.has(type)))
        .map((p) => p.name);
      // Before: a load now may read the read model before the event (it is not kept). After the
      // read models applied it: a load from then on sees it.
      cache.evict(all ? ALL_TAGS : tags);
      if (applying.length) await this.projector.waitForProjections(last, applying, 60_000);
      cache.evict(all ? ALL_TAGS : tags);
    }
    this.position = last;
    await this.announce();
  }

  /**
   * Records this follower's position and wakes the processes waiting for it; a heartbeat that lands
   * renews the lease from its sending. One that finds the row gone (fenced) joins again.
   */
  private async announce(): Promise<void> {
    const sentAt = performance.now();
    const position = formatPosition(this.position);
    this.heard(this.id, this.position);
    const r = await this.db.query(
      `WITH up AS (UPDATE quire_read_cache_followers SET position = $2, seen_at = now() WHERE follower = $1 RETURNING follower)
       SELECT pg_notify('${CHANNEL}', follower || ':' || $2) FROM up`,
      [this.id, position],
    );
    if (r.rows.length > 0) {
      if (!this.joining) this.leaseUntil = Math.max(this.leaseUntil, sentAt + LEASE_MS);
      return;
    }
    this.logger?.warn({ follower: this.id }, 'read caches: this process was silent too long and was fenced; its caches are emptied');
    await this.join();
  }

  /**
   * Into the table first (commands wait for this follower from then on), then every cache emptied:
   * what they hold may predate commands that answered while it was fenced. Only then do they answer.
   */
  private join(): Promise<void> {
    this.joining ??= (async () => {
      try {
        const sentAt = performance.now();
        const position = formatPosition(this.position);
        this.heard(this.id, this.position);
        await this.db.query(
          `WITH up AS (
             INSERT INTO quire_read_cache_followers (follower, position, seen_at) VALUES ($1, $2, now())
             ON CONFLICT (follower) DO UPDATE SET position = EXCLUDED.position, seen_at = now())
           SELECT pg_notify('${CHANNEL}', $1 || ':' || $2)`,
          [this.id, position],
        );
        for (const cache of this.caches) cache.evict(ALL_TAGS);
        this.leaseUntil = sentAt + LEASE_MS;
        this.joined = true;
      } finally {
        this.joining = undefined;
      }
    })();
    return this.joining;
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.caches.length && this.joined) await this.announce();
    await this.refresh();
  }

  /**
   * Fences the followers silent for LIVE_MS (not this one: its caches stop answering on their own
   * when its heartbeats do not land), then reads where every remaining one is.
   */
  private async refresh(): Promise<void> {
    // Heard of after the statement began: joined after its snapshot, so not absent for good.
    const before = this.heardCount;
    // One statement: the main query sees the table as before the DELETE, hence the filter.
    const r = await this.db.query<{ follower: string; position: string }>(
      `WITH fenced AS (DELETE FROM quire_read_cache_followers WHERE seen_at < now() - make_interval(secs => $1) AND follower <> $2 RETURNING follower)
       SELECT follower, position FROM quire_read_cache_followers WHERE follower NOT IN (SELECT follower FROM fenced)`,
      [LIVE_MS / 1000, this.id],
    );
    const present = new Set(r.rows.map((row) => row.follower));
    for (const [id, f] of this.known) if (!present.has(id) && id !== this.id && f.heard <= before) this.known.delete(id);
    for (const row of r.rows) this.heard(row.follower, parsePosition(row.position));
    this.settle();
  }

  private heard(id: string, position: Position): void {
    const known = this.known.get(id);
    const heard = ++this.heardCount;
    this.known.set(id, { position: known && comparePositions(known.position, position) > 0 ? known.position : position, heard });
    this.settle();
  }

  private behind(position: Position): string[] {
    return [...this.known].filter(([, f]) => comparePositions(f.position, position) < 0).map(([id]) => id);
  }

  private reached(position: Position): boolean {
    // A follower that has not started yet (no cache) has nothing to evict.
    if (!this.caches.length && this.known.size === 0) return true;
    return this.behind(position).length === 0;
  }

  private settle(): void {
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      const done = this.reached(w.position);
      if (done) w.resolve();
      return !done;
    });
  }
}
