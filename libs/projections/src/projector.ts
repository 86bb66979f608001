import { Db, Queryable } from '@quire/platform/db/db';
import { EventStore, RecordedEvent, Subscription } from '@quire/event-store/event-store.port';
import { comparePositions, formatPosition, parsePosition, Position, START } from '@quire/event-store/position';
import type { Logger } from '@quire/platform/logging/logger';
import { ApplyContext, liveTables, Projection } from './projection';
import { ProjectionRegistry } from './projection-registry';
import { rebuildProjections } from './rebuild';

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

export interface ProjectorOptions {
  /** How often a process tries to take over projections it does not run, and checks the connection holding its locks. */
  lockIntervalMs?: number;
  /** Events read from `$all` per batch. */
  batchSize?: number;
  /** Attempts at a batch that hit a transient database error before the subscription takes over retrying. */
  transientRetries?: number;
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
  private readonly failedAt = new Map<string, number>();
  private failureClock = 0;
  private readonly owned = new Set<string>();
  private readonly byName = new Map<string, Projection>();
  private waiters: Waiter[] = [];
  private subscription?: Subscription;
  private lockConnection?: Queryable & { release(): void };
  private stopListening?: () => Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  private lockTimer?: NodeJS.Timeout;
  private running = false;
  private stopped = false;
  /** Lock taking and resubscribing run one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  /** Work committed batches left for after their commit (ApplyContext.afterCommit), one piece at a time. */
  private afterCommits: Promise<void> = Promise.resolve();
  /** The batch being applied, if any. */
  private applying: Promise<unknown> = Promise.resolve();
  private readonly lockIntervalMs: number;
  private readonly batchSize: number;
  private readonly transientRetries: number;

  constructor(
    private readonly db: Db,
    private readonly store: EventStore,
    readonly projections: readonly Projection[],
    private readonly logger?: Logger,
    options: ProjectorOptions = {},
  ) {
    this.registry = new ProjectionRegistry(db);
    for (const p of projections) this.byName.set(p.name, p);
    this.lockIntervalMs = options.lockIntervalMs ?? 5000;
    this.batchSize = options.batchSize ?? 1000;
    this.transientRetries = options.transientRetries ?? 6;
  }

  /**
   * Creates missing read models and rebuilds those whose version changed. Processes starting
   * together (api and worker replicas) take turns: the second reads the registry only once the
   * first is done, so it neither creates the same tables nor rebuilds into the same scratch ones.
   */
  async prepare(): Promise<void> {
    await this.db.withConnection(async (conn) => {
      await conn.query(`SELECT pg_advisory_lock(hashtext('quire-projections:prepare'))`);
      try {
        await this.registry.init();
        const changed: Projection[] = [];
        for (const p of this.projections) {
          const row = await this.registry.get(p.name);
          if (!row) {
            await this.db.exec(p.schema(liveTables));
            await this.registry.upsert(p.name, p.version);
          } else if (row.version !== p.version) {
            this.logger?.info({ projection: p.name, from: row.version, to: p.version }, 'projection version changed: rebuilding');
            changed.push(p);
          }
        }
        // One pass over the events for all of them.
        if (changed.length) await rebuildProjections({ db: this.db, store: this.store, projections: changed, registry: this.registry, logger: this.logger });
      } finally {
        await conn.query(`SELECT pg_advisory_unlock(hashtext('quire-projections:prepare'))`).catch(() => undefined);
      }
    });
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
    this.running = true;
    await this.tryLocks();
    this.lockTimer = setInterval(
      () => void this.tryLocks().catch((err) => this.logger?.warn({ err }, 'projector: taking projection locks failed')),
      this.lockIntervalMs,
    );
  }

  private inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.serial.then(fn);
    this.serial = run.catch(() => undefined);
    return run;
  }

  private tryLocks(): Promise<void> {
    return this.inTurn(() => this.takeLocks());
  }

  /**
   * Takes the advisory lock of every projection nobody runs. The locks live on one connection:
   * when it is gone, so are they (another process may run those projections now), so this
   * process lets them go and competes for them again on a new connection.
   */
  private async takeLocks(): Promise<void> {
    if (this.stopped || !this.running) return;
    if (this.lockConnection && !(await this.lockConnection.query('SELECT 1').then(() => true, () => false))) {
      this.logger?.warn({ projections: [...this.owned] }, 'projector: the connection holding projection locks was lost');
      this.lockConnection.release();
      this.lockConnection = undefined;
      this.owned.clear();
      await this.resubscribe();
    }
    this.lockConnection ??= await this.db.acquireConnection();
    let gained = false;
    for (const p of this.projections) {
      if (this.owned.has(p.name) || this.stopped) continue;
      const r = await this.lockConnection.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [
        `quire-projection:${p.name}`,
      ]);
      if (r.rows[0].locked) {
        this.owned.add(p.name);
        const row = await this.registry.get(p.name);
        if (row) this.checkpoints.set(p.name, row.position);
        gained = true;
        this.logger?.info({ projection: p.name }, 'projection runner started');
      }
    }
    if (this.failures.size > 0) await this.refreshFailures();
    if (gained) await this.resubscribe();
  }

  /** Projections this process runs and that are not stopped on a failure. */
  private activeNames(): string[] {
    return [...this.owned].filter((n) => !this.failures.has(n));
  }

  /**
   * (Re)starts reading `$all` from the slowest projection this process runs. Called whenever that
   * set grows (a takeover, a failure cleared by a rebuild): the running subscription is already
   * past where the newcomer stopped. Projections that are further along skip what they have.
   */
  private async resubscribe(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
    const names = this.activeNames();
    if (this.stopped || names.length === 0) return;
    let from: Position | undefined;
    for (const name of names) {
      const p = this.checkpoints.get(name) ?? START;
      if (!from || comparePositions(p, from) < 0) from = p;
    }
    let after = from ?? START;
    this.subscription = this.store.subscribe(after, {
      batchSize: this.batchSize,
      onEvents: async (events) => {
        await this.applyBatch(events, after);
        after = events[events.length - 1].position;
      },
      onError: (err) => this.logger?.error({ err }, 'projector: reading events failed'),
    });
  }

  /**
   * Each projection takes the batch in its own transaction, all at once: they share nothing, so
   * a slow one (search indexing a large import) does not hold the others back, and their database
   * work runs in parallel. (PGlite, one connection, queues the transactions.)
   */
  private async applyBatch(events: RecordedEvent[], after: Position): Promise<void> {
    const types = new Set(events.map((e) => e.type));
    const busy: string[] = [];
    const idle: string[] = [];
    for (const name of this.activeNames()) {
      const handles = this.byName.get(name)!.handles.some((t) => types.has(t));
      // A checkpoint behind the batch: the events before it are read and applied first (applyBatchTo).
      if (handles || comparePositions(this.checkpoints.get(name) ?? START, after) < 0) busy.push(name);
      else idle.push(name);
    }
    const applying = Promise.allSettled([...busy.map((name) => this.applyBatchTo(name, events, after)), this.passBatch(idle, events, after)]);
    this.applying = applying;
    const outcomes = await applying;
    // Infrastructure trouble: the subscription retries the batch once every transaction is over
    // (projections that committed skip what they already have).
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Moves the checkpoints of projections that handle none of the batch's events over it, all in
   * one statement (see ProjectionRegistry.passOver), instead of a transaction each that locks the
   * row, applies nothing and writes the checkpoint: those were five round trips and a commit per
   * projection per batch, most of the projector's statements (1,350 of the 1,995 of a 1,000-page
   * import and its re-import). A projection whose checkpoint is not at or past the batch's start
   * (a rebuild swapped in an older one) takes the batch the usual way, gap first.
   */
  private async passBatch(names: string[], events: RecordedEvent[], after: Position): Promise<void> {
    const last = events[events.length - 1].position;
    const passing = names.filter((name) => comparePositions(last, this.checkpoints.get(name) ?? START) > 0);
    if (passing.length === 0) return;
    const reached = await this.registry.passOver(passing, after, last);
    const behind: string[] = [];
    for (const name of passing) {
      const position = reached.get(name);
      if (!position || comparePositions(position, after) < 0) behind.push(name);
      else this.advance(name, position);
    }
    await Promise.all(behind.map((name) => this.applyBatchTo(name, events, after)));
  }

  /**
   * `after` is where the subscription read from before this batch. A checkpoint behind it means
   * events this projection has not seen lie before the batch: they are read and applied first,
   * so the checkpoint never moves over an event that was not applied.
   */
  private async applyBatchTo(name: string, events: RecordedEvent[], after: Position): Promise<void> {
    const projection = this.byName.get(name)!;
    const last = events[events.length - 1].position;
    for (let attempt = 0; ; attempt++) {
      if (this.failures.has(name) || !this.owned.has(name)) return;
      const known = this.checkpoints.get(name) ?? START;
      if (comparePositions(last, known) <= 0) return;
      let failed: { event: RecordedEvent; err: unknown } | undefined;
      // Left by this attempt only: a transaction rolled back takes its work with it.
      const later: Array<(db: Queryable) => Promise<unknown>> = [];
      const ctx: ApplyContext = { afterCommit: (work) => later.push(work) };
      const applyOne = async (event: RecordedEvent, tx: Queryable) => {
        if (!projection.handles.includes(event.type)) return;
        try {
          await projection.apply(event, tx, liveTables, ctx);
        } catch (err) {
          failed = { event, err };
          throw err;
        }
      };
      try {
        const committed = await this.db.transaction(async (tx) => {
          const row = await this.registry.lock(name, tx);
          let from = row?.position ?? START;
          if (comparePositions(from, after) < 0) {
            this.logger?.info({ projection: name, from: formatPosition(from), to: formatPosition(after) }, 'projector: catching up on events before the batch');
            from = await this.applyGap(from, after, (e) => applyOne(e, tx));
          }
          for (const event of events) {
            if (comparePositions(event.position, from) <= 0) continue;
            await applyOne(event, tx);
          }
          // After a rebuild swapped tables in, the row may be ahead of this batch: never move it back.
          const next = comparePositions(last, from) > 0 ? last : from;
          await this.registry.setPosition(name, next, tx);
          return next;
        });
        this.advance(name, committed);
        for (const work of later) this.runAfterCommit(name, work);
        return;
      } catch (err) {
        if (failed && !isTransientError(failed.err)) {
          await this.stopOnPoison(name, failed.event, failed.err);
          return;
        }
        // A deadlock, a serialization failure, a lost connection, a canceled query: none of it is
        // the event's fault. Try again after a pause; past a few attempts the subscription retries
        // the whole batch (projections that committed skip what they already have).
        if (this.stopped || attempt >= this.transientRetries) throw err;
        this.logger?.warn({ projection: name, attempt: attempt + 1, err }, 'projector: transient error, retrying the batch');
        await delay(Math.min(50 * 2 ** attempt, 2000));
      }
    }
  }

  /**
   * Queued behind the work left before it, not awaited: readers were told of the checkpoint
   * already, and the next batch need not wait for statistics either.
   */
  private runAfterCommit(name: string, work: (db: Queryable) => Promise<unknown>): void {
    this.afterCommits = this.afterCommits
      .then(() => work(this.db))
      .then(
        () => undefined,
        (err) => this.logger?.warn({ projection: name, err }, 'projector: work after a commit failed'),
      );
  }

  /**
   * Resolves once the work that batches committed so far left for after their commit is done. A
   * checkpoint may be announced (through its notification) before the batch's own runner has
   * queued that work: the batch under way is waited for first.
   */
  async afterCommitsDone(): Promise<void> {
    for (;;) {
      const queued = this.afterCommits;
      await this.applying;
      await queued;
      if (queued === this.afterCommits) return;
    }
  }

  /** Applies the events in (from, until] and returns the position reached. */
  private async applyGap(from: Position, until: Position, apply: (e: RecordedEvent) => Promise<void>): Promise<Position> {
    let position = from;
    for (;;) {
      const events = await this.store.readAll(position, this.batchSize);
      for (const event of events) {
        if (comparePositions(event.position, until) > 0) return position;
        await apply(event);
        position = event.position;
      }
      if (events.length < this.batchSize) return position;
    }
  }

  private async stopOnPoison(name: string, event: RecordedEvent, err: unknown): Promise<void> {
    const reason = `event ${event.id} (${event.type}.v${event.schemaVersion} at ${formatPosition(event.position)}): ${(err as Error)?.message ?? err}`;
    // A poison event stops this projection loudly; it is never skipped.
    this.logger?.error({ projection: name, eventId: event.id, type: event.type, err }, 'projection stopped on a failing event');
    // The registry first: a refresh that read the row before this must not clear the failure.
    await this.registry.markFailed(name, reason);
    this.failures.set(name, reason);
    this.failedAt.set(name, ++this.failureClock);
    this.rejectWaitersOf(name, reason);
  }

  private advance(name: string, position: Position): void {
    const known = this.checkpoints.get(name);
    if (!known || comparePositions(position, known) > 0) this.checkpoints.set(name, position);
    this.settleWaiters();
  }

  private async refresh(): Promise<void> {
    if (this.waiters.length === 0 && this.failures.size === 0) return;
    for (const row of await this.registry.all()) {
      this.advance(row.name, row.position);
      if (row.status === 'failed' && row.error && !this.failures.has(row.name)) {
        this.failures.set(row.name, row.error);
        this.rejectWaitersOf(row.name, row.error);
      }
    }
    if (this.failures.size > 0) await this.refreshFailures();
  }

  /**
   * A failed projection stays stopped until its registry row says otherwise (a replay or a
   * rebuild by a new version put it back to running): then waits work again and, where this
   * process runs it, it resumes from the rebuilt checkpoint. No restart needed.
   */
  private async refreshFailures(): Promise<void> {
    // Rows read before a failure was recorded here cannot clear it.
    const readAt = ++this.failureClock;
    const rows = await this.registry.all();
    let resume = false;
    for (const row of rows) {
      if (!this.failures.has(row.name) || row.status === 'failed' || (this.failedAt.get(row.name) ?? 0) > readAt) continue;
      this.failures.delete(row.name);
      this.advance(row.name, row.position);
      this.logger?.info({ projection: row.name, status: row.status }, 'projection no longer failed');
      if (this.owned.has(row.name)) resume = true;
    }
    // Not awaited: this may run inside a turn (takeLocks) that must not wait for itself.
    if (resume) void this.inTurn(() => this.resubscribe()).catch((err) => this.logger?.error({ err }, 'projector: resubscribing failed'));
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
    return this.waitForProjections(position, this.projections.filter((p) => p.handles.some((t) => eventTypes.includes(t))).map((p) => p.name), timeoutMs);
  }

  /**
   * Resolves once each named projection has passed `position` (a name this process does not know
   * is never waited for); rejects when one of them is stopped on a failure.
   */
  waitForProjections(position: Position, projections: readonly string[], timeoutMs = 10_000): Promise<void> {
    const names = projections.filter((n) => this.byName.has(n));
    if (names.some((n) => this.failures.has(n))) {
      // The failure may be over (a replay just rebuilt the projection): ask the registry first.
      return this.refreshFailures()
        .catch(() => undefined)
        .then(() => {
          const failed = names.find((n) => this.failures.has(n));
          if (failed) throw new ProjectionFailedError(failed, this.failures.get(failed)!);
          return this.waitForNames(position, names, timeoutMs);
        });
    }
    return this.waitForNames(position, names, timeoutMs);
  }

  private waitForNames(position: Position, names: string[], timeoutMs: number): Promise<void> {
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
    await this.serial;
    await this.subscription?.close();
    await this.afterCommits;
    await this.stopListening?.();
    if (this.lockConnection) {
      await this.lockConnection.query(`SELECT pg_advisory_unlock_all()`).catch(() => undefined);
      this.lockConnection.release();
    }
    for (const w of this.waiters) w.reject(new Error('projector stopped'));
    this.waiters = [];
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SQLSTATEs and socket errors that say "try again", not "this event cannot be applied". */
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '57014', '57P01', '57P02', '57P03']);
const TRANSIENT_SQLSTATE_CLASSES = ['08', '53'];
const TRANSIENT_SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTCONN']);

export function isTransientError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_SOCKET_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  const message = (err as Error)?.message ?? '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}
