import { Aggregate, DecideContext, DomainEvent } from '@quire/domain';
import { EventMetadata, EventStore, WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { Position } from '@quire/event-store/position';
import { EVENT_SCHEMA_VERSIONS } from './event-schema-versions';
import { Projector } from './projector';

export interface ExecuteOptions<State, Event extends DomainEvent> {
  stream: string;
  aggregate: Aggregate<State, Event>;
  decide(state: State, ctx: DecideContext): Event[];
  metadata?: EventMetadata;
  /** Retries a lost optimistic-concurrency race by deciding again on fresh state (10 by default). */
  retries?: number;
}

export interface Executed<State, Event> {
  state: State;
  events: Event[];
  position?: Position;
}

const DEFAULT_RETRIES = 10;
/** Full jitter: a random wait under 5, 10, 20… ms, at most 200 ms, between attempts. */
const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one shape of every command handler: load the stream, decide, append with the expected
 * version (deciding again when another writer won), then wait until the read models that read
 * those events have caught up (read-your-writes).
 */
export class CommandExecutor {
  constructor(
    private readonly store: EventStore,
    private readonly projector: Projector,
    private readonly clock: () => Date = () => new Date(),
    private readonly readModelTimeoutMs = 10_000,
  ) {}

  async execute<State, Event extends DomainEvent>(opts: ExecuteOptions<State, Event>): Promise<Executed<State, Event>> {
    const { position, events, state } = await this.append(opts);
    if (position) await this.waitFor(position, events.map((e) => e.type));
    return { state, events, position };
  }

  /** Load, decide and append, without waiting for read models. */
  async append<State, Event extends DomainEvent>(opts: ExecuteOptions<State, Event>): Promise<Executed<State, Event>> {
    const retries = opts.retries ?? DEFAULT_RETRIES;
    for (let attempt = 0; ; attempt++) {
      const recorded = await this.store.readStream(opts.stream);
      let state = opts.aggregate.initialState();
      for (const e of recorded) state = opts.aggregate.evolve(state, { type: e.type, data: e.data } as Event);
      const events = opts.decide(state, { now: this.clock(), actorId: opts.metadata?.actor });
      if (events.length === 0) return { state, events };
      try {
        const result = await this.store.append(
          opts.stream,
          events.map((e) => ({ type: e.type, schemaVersion: EVENT_SCHEMA_VERSIONS[e.type] ?? 1, data: e.data, metadata: opts.metadata })),
          recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].streamVersion,
        );
        for (const e of events) state = opts.aggregate.evolve(state, e);
        return { state, events, position: result.position };
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError) || attempt >= retries) throw err;
        // Writers that lost together would collide again at once: spread them out.
        await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt));
      }
    }
  }

  waitFor(position: Position, eventTypes: readonly string[]): Promise<void> {
    return this.projector.waitFor(position, eventTypes, this.readModelTimeoutMs);
  }
}
