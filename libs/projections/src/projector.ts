import { Db, Queryable } from '@quire/platform/db/db';
import { EventStore, RecordedEvent, Subscription } from '@quire/event-store/event-store.port';
import { comparePositions, formatPosition, parsePosition, Position, START } from '@quire/event-store/position';
import type { Logger } from '@quire/platform/logging/logger';
import { liveTables, Projection } from './projection';
import { ProjectionRegistry } from './projection-registry';
import { rebuildProjection } from './rebuild';

export class ProjectionTimeoutError extends Error {
  readonly code = 'projection_timeout';
  constructor(readonly lagging: string[]) {
    super(`Read models did not catch up in time (${lagging.join(', ')})`);
  }
}

export class ProjectionFailedError extends Error {
  readonly code = 'projection_failed';
  constructor(readonly projection: string, readonly reason: string) {
    super(`Projection ${projection} is stopped: ${reason}`);
  }
}

interface Waiter {
  position: Position;
  names: string[];
  resolve(): void;
  reject(err: Error): void;
}

export interface ProjectorStatus {
  name: string;
  version: number;
  position: string;
  status: string;
  error: string | null;
  runningHere: boolean;
}

/**
 * Applies events to read models in global order. Each batch commits its rows together with
 * the projection's checkpoint; one process runs each projection (session advisory lock), and
 * every process can wait for a position (read-your-writes) through checkpoint notifications.
 */
export class Projector {
  private readonly registry: ProjectionRegistry;
  private readonly checkpoints = new Map<string, Position>();
  private readonly failures = new Map<string, string>();
  private readonly owned = new Set<string>();
  private readonly byName = new Map<string, Projection>();
  private waiters: Waiter[] = [];
  private subscription?: Subscription;
  private lockConnection?: Queryable & { release(): void };
  private stopListening?: () => Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  private lockTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly store: EventStore,
    readonly projections: readonly Projection[],
    private readonly logger?: Logger,
  ) {
    this.registry = new ProjectionRegistry(db);
    for (const p of projections) this.byName.set(p.name, p);
  }

  /** Creates missing read models and rebuilds those whose version changed. */
  async prepare(): Promise<void> {
    await this.registry.init();
    for (const p of this.projections) {
      const row = await this.registry.get(p.name);
      if (!row) {
        await this.db.exec(p.schema(liveTables));
        await this.registry.upsert(p.name, p.version);
      } else if (row.version !== p.version) {
        this.logger?.info({ projection: p.name, from: row.version, to: p.version }, 'projection version changed: rebuilding');
        await rebuildProjection({ db: this.db, store: this.store, projection: p, registry: this.registry, logger: this.logger });
      }
    }
    for (const row of await this.registry.all()) {
      this.checkpoints.set(row.name, row.position);
      if (row.status === 'failed' && row.error) this.failures.set(row.name, row.error);
    }
  }

  /** Follows checkpoints written by any process, so waits work where projections run elsewhere. */
  async startObserving(): Promise<void> {
    this.stopListening = await this.db.listen('quire_checkpoints', (payload) => {
      const i = payload.lastIndexOf(':');
      if (i > 0) this.advance(payload.slice(0, i), parsePosition(payload.slice(i + 1)));
    });
    // A missed notification (reconnect) must not leave a waiter hanging.
    this.pollTimer = setInterval(() => void this.refresh().catch(() => undefined), 250);
  }

  /** Runs every projection this process can lock; retries the others in case their runner dies. */
  async startRunning(): Promise<void> {
    this.lockConnection = await this.db.acquireConnection();
    await this.tryLocks();
    this.lockTimer = setInterval(() => void this.tryLocks().catch(() => undefined), 5000);
    const from = this.minOwnedPosition();
    this.subscription = this.store.subscribe(from, {
      batchSize: 1000,
      onEvents: (events) => this.applyBatch(events),
      onError: (err) => this.logger?.error({ err }, 'projector: reading events failed'),
    });
  }

  private async tryLocks(): Promise<void> {
    if (!this.lockConnection || this.stopped) return;
    for (const p of this.projections) {
      if (this.owned.has(p.name)) continue;
      const r = await this.lockConnection.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [
        `quire-projection:${p.name}`,
      ]);
      if (r.rows[0].locked) {
        this.owned.add(p.name);
        const row = await this.registry.get(p.name);
        if (row) this.checkpoints.set(p.name, row.position);
        this.logger?.info({ projection: p.name }, 'projection runner started');
      }
    }
  }

  private minOwnedPosition(): Position {
    let min: Position | undefined;
    for (const name of this.owned) {
      const p = this.checkpoints.get(name) ?? START;
      if (!min || comparePositions(p, min) < 0) min = p;
    }
    return min ?? START;
  }

  /**
   * Each projection takes the batch in its own transaction, all at once: they share nothing, so
   * a slow one (search indexing a large import) does not hold the others back, and their database
   * work runs in parallel. (PGlite, one connection, queues the transactions.)
   */
  private async applyBatch(events: RecordedEvent[]): Promise<void> {
    const outcomes = await Promise.allSettled([...this.owned].map((name) => this.applyBatchTo(name, events)));
    // Infrastructure trouble: the subscription retries the batch once every transaction is over
    // (projections that committed skip what they already have).
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async applyBatchTo(name: string, events: RecordedEvent[]): Promise<void> {
    if (this.failures.has(name)) return;
    const projection = this.byName.get(name)!;
    const last = events[events.length - 1].position;
    const known = this.checkpoints.get(name) ?? START;
    if (comparePositions(last, known) <= 0) return;
    let failed: { event: RecordedEvent; err: unknown } | undefined;
    const committed = await this.db.transaction(async (tx) => {
      const row = await this.registry.lock(name, tx);
      const from = row?.position ?? START;
      for (const event of events) {
        if (comparePositions(event.position, from) <= 0 || !projection.handles.includes(event.type)) continue;
        try {
          await projection.apply(event, tx, liveTables);
        } catch (err) {
          failed = { event, err };
          throw err;
        }
      }
      // After a rebuild swapped tables in, the row may be ahead of this batch: never move it back.
      const next = comparePositions(last, from) > 0 ? last : from;
      await this.registry.setPosition(name, next, tx);
      return next;
    }).catch(async (err) => {
      if (!failed) throw err; // infrastructure trouble: the subscription retries the batch
      const reason = `event ${failed.event.id} (${failed.event.type}.v${failed.event.schemaVersion} at ${formatPosition(failed.event.position)}): ${
        (failed.err as Error)?.message ?? failed.err
      }`;
      // A poison event stops this projection loudly; it is never skipped.
      this.logger?.error({ projection: name, eventId: failed.event.id, type: failed.event.type, err: failed.err }, 'projection stopped on a failing event');
      this.failures.set(name, reason);
      await this.registry.markFailed(name, reason);
      this.rejectWaitersOf(name, reason);
      return undefined;
    });
    if (committed) this.advance(name, committed);
  }

  private advance(name: string, position: Position): void {
    const known = this.checkpoints.get(name);
    if (!known || comparePositions(position, known) > 0) this.checkpoints.set(name, position);
    this.settleWaiters();
  }

  private async refresh(): Promise<void> {
    if (this.waiters.length === 0) return;
    for (const row of await this.registry.all()) {
      this.advance(row.name, row.position);
      if (row.status === 'failed' && row.error && !this.failures.has(row.name)) {
        this.failures.set(row.name, row.error);
        this.rejectWaitersOf(row.name, row.error);
      }
    }
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      const done = w.names.every((n) => comparePositions(this.checkpoints.get(n) ?? START, w.position) >= 0);
      if (done) w.resolve();
      return !done;
    });
  }

  private rejectWaitersOf(name: string, reason: string): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.names.includes(name)) return true;
      w.reject(new ProjectionFailedError(name, reason));
      return false;
    });
  }

  /** Resolves once every projection that reads any of `eventTypes` has passed `position`. */
  waitFor(position: Position, eventTypes: readonly string[], timeoutMs = 10_000): Promise<void> {
    const names = this.projections.filter((p) => p.handles.some((t) => eventTypes.includes(t))).map((p) => p.name);
    for (const n of names) if (this.failures.has(n)) return Promise.reject(new ProjectionFailedError(n, this.failures.get(n)!));
    if (names.every((n) => comparePositions(this.checkpoints.get(n) ?? START, position) >= 0)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new ProjectionTimeoutError(names.filter((n) => comparePositions(this.checkpoints.get(n) ?? START, position) < 0)));
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        names,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.waiters.push(waiter);
    });
  }

  async status(): Promise<ProjectorStatus[]> {
    const rows = await this.registry.all();
    return rows.map((r) => ({
      name: r.name,
      version: r.version,
      position: formatPosition(r.position),
      status: r.status,
      error: r.error,
      runningHere: this.owned.has(r.name),
    }));
  }

  /** Events between the newest visible one and the slowest projection (0 when caught up). */
  async lag(): Promise<{ behind: number; failed: string[] }> {
    const rows = await this.registry.all();
    const failed = rows.filter((r) => r.status === 'failed').map((r) => r.name);
    let min: Position | undefined;
    for (const r of rows) if (!min || comparePositions(r.position, min) < 0) min = r.position;
    const behind = min ? (await this.store.readAll(min, 1000)).length : 0;
    return { behind, failed };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearInterval(this.lockTimer);
    await this.subscription?.close();
    await this.stopListening?.();
    if (this.lockConnection) {
      await this.lockConnection.query(`SELECT pg_advisory_unlock_all()`).catch(() => undefined);
      this.lockConnection.release();
    }
    for (const w of this.waiters) w.reject(new Error('projector stopped'));
    this.waiters = [];
  }
}
