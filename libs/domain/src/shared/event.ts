/** A domain event: a plain object with a stable string type (persisted with a schema version). */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** What a command needs from the outside world; the domain reads no clock and makes no ids. */
export interface DecideContext {
  now: Date;
  actorId?: string;
}

export interface Aggregate<State, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
}
