import { Aggregate, DecideContext, DomainEvent } from '@quire/domain';
import { EventMetadata, EventStore, ExpectedVersion, RecordedEvent, WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { Position } from '@quire/event-store/position';
import { EVENT_SCHEMA_VERSIONS } from './event-schema-versions';
import { Projector } from './projector';
import type { ReadCacheFollower } from './read-cache';

/** A stream folded into an aggregate's state, with the version to append after. */
export interface LoadedStream<State> {
  state: State;
  /** `'no_stream'` for a stream with no events yet: the one convention for an empty stream. */
  version: ExpectedVersion;
  /** The events as recorded, for what the state does not keep (page trees of old revisions). */
  events: RecordedEvent[];
}

export interface ExecuteOptions<State, Event extends DomainEvent, Prepared = undefined> {
  stream: string;
  aggregate: Aggregate<State, Event>;
  /**
   * The slow part of a command (git work, content reads), done on the stream just loaded and done
   * again when the decision is retried on a newer state. Whatever it writes (git objects) is
   * recorded only by the events `decide` returns.
   */
  prepare?(loaded: LoadedStream<State>): Promise<Prepared>;
  /** Pure: the events the command records on this state (none: nothing to record). */
  decide(state: State, ctx: DecideContext, prepared: Prepared): Event[];
  metadata?: EventMetadata;
  /** Retries a lost optimistic-concurrency race by deciding again on fresh state (10 by default). */
  retries?: number;
  /** A decision refused because `prepare` worked on a state that moved (e.g. StaleHeadError):
   * retried like a lost append race. */
  isStale?(err: unknown): boolean;
}

export interface Executed<State, Event, Prepared = undefined> {
  state: State;
  events: Event[];
  position?: Position;
  /**
   * The position of the stream's last event, appended by this call or found there: what a caller
   * that decided nothing waits for before it answers from read models (its request was done earlier).
   */
  head?: Position;
  /** What `prepare` made for the decision that was taken. */
  prepared?: Prepared;
}

const DEFAULT_RETRIES = 10;
/** Full jitter: a random wait under 5, 10, 20… ms, at most 200 ms, between attempts. */
const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one shape of every command, quick or slow: load the stream, prepare (slow I/O, if any),
 * decide, append with the expected version (preparing and deciding again when another writer
 * won), then wait until the read models that read those events have caught up (read-your-writes).
 */
export class CommandExecutor {
  constructor(
    private readonly store: EventStore,
    private readonly projector: Projector,
    private readonly clock: () => Date = () => new Date(),
    private readonly readModelTimeoutMs = 10_000,
    /** The processes' read caches: a command answers once they, too, have evicted what it changed. */
    private readonly readCaches?: ReadCacheFollower,
  ) {}

  async execute<State, Event extends DomainEvent, Prepared = undefined>(opts: ExecuteOptions<State, Event, Prepared>): Promise<Executed<State, Event, Prepared>> {
    const executed = await this.append(opts);
    if (executed.position) await this.waitFor(executed.position, executed.events.map((e) => e.type));
    return executed;
  }

  /** Load, prepare, decide and append, without waiting for read models. */
  async append<State, Event extends DomainEvent, Prepared = undefined>(opts: ExecuteOptions<State, Event, Prepared>): Promise<Executed<State, Event, Prepared>> {
    const retries = opts.retries ?? DEFAULT_RETRIES;
    for (let attempt = 0; ; attempt++) {
      try {
        const loaded = await this.load(opts.stream, opts.aggregate);
        const prepared = (opts.prepare ? await opts.prepare(loaded) : undefined) as Prepared;
        let state = loaded.state;
        const events = opts.decide(state, { now: this.clock(), actorId: opts.metadata?.actor }, prepared);
        if (events.length === 0) return { state, events, prepared, head: loaded.events[loaded.events.length - 1]?.position };
        const result = await this.store.append(
          opts.stream,
          events.map((e) => ({ type: e.type, schemaVersion: EVENT_SCHEMA_VERSIONS[e.type] ?? 1, data: e.data, metadata: opts.metadata })),
          loaded.version,
        );
        for (const e of events) state = opts.aggregate.evolve(state, e);
        return { state, events, position: result.position, head: result.position, prepared };
      } catch (err) {
        const lostRace = err instanceof WrongExpectedVersionError || (opts.isStale?.(err) ?? false);
        if (!lostRace || attempt >= retries) throw err;
        // Writers that lost together would collide again at once: spread them out.
        await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt));
      }
    }
  }

  /** A stream folded into an aggregate's state: the one way every command reads its stream. */
  async load<State, Event extends DomainEvent>(stream: string, aggregate: Aggregate<State, Event>): Promise<LoadedStream<State>> {
    return foldStream(aggregate, await this.store.readStream(stream));
  }

  async waitFor(position: Position, eventTypes: readonly string[]): Promise<void> {
    await this.projector.waitFor(position, eventTypes, this.readModelTimeoutMs);
    await this.readCaches?.waitFor(position, this.readModelTimeoutMs);
  }

  /** Resolves once the named read models, and every live process's read caches, have passed `position`. */
  async waitForReadModels(position: Position, names: readonly string[], timeoutMs = this.readModelTimeoutMs): Promise<void> {
    await this.projector.waitForProjections(position, names, timeoutMs);
    await this.readCaches?.waitFor(position, timeoutMs);
  }
}

/** Folds recorded events into an aggregate's state. */
export function foldStream<State, Event extends DomainEvent>(aggregate: Aggregate<State, Event>, events: RecordedEvent[]): LoadedStream<State> {
  let state = aggregate.initialState();
  for (const e of events) state = aggregate.evolve(state, { type: e.type, data: e.data } as Event);
  return { state, version: events.length === 0 ? 'no_stream' : events[events.length - 1].streamVersion, events };
}
