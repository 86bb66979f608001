import { Position } from './position';

export interface EventMetadata {
  /** The user who caused the event, when there is one. */
  actor?: string;
  /** The request or job that caused it, for tracing. */
  correlationId?: string;
  [key: string]: unknown;
}

export interface NewEvent<T = unknown> {
  /** Stable id; appending an event id already in the stream is a no-op (idempotent append). */
  id?: string;
  type: string;
  /** The schema version of `data`; bumped with an upcaster when the shape changes. */
  schemaVersion?: number;
  data: T;
  metadata?: EventMetadata;
}

export interface RecordedEvent<T = unknown> {
  id: string;
  streamId: string;
  /** 1-based position of the event in its stream. */
  streamVersion: number;
  position: Position;
  type: string;
  schemaVersion: number;
  data: T;
  metadata: EventMetadata;
  recordedAt: Date;
}

/** `no_stream`: the stream must not exist; `any`: no check; a number: the stream's current version. */
export type ExpectedVersion = number | 'no_stream' | 'any';

export interface AppendResult {
  /** The stream's version after the append. */
  nextVersion: number;
  /** Position of the last event appended (or already present, for an idempotent retry). */
  position: Position;
}

export class WrongExpectedVersionError extends Error {
  readonly code = 'wrong_expected_version';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${expected}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export interface Subscription {
  close(): Promise<void>;
}

export interface SubscribeOptions {
  batchSize?: number;
  /** Called for each batch, in global order; the next batch waits for it. */
  onEvents(events: RecordedEvent[]): Promise<void>;
  onError?(err: unknown): void;
}

/** The event store port (see design.md, "Event store"). Every adapter passes one contract suite. */
export interface EventStore {
  append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult>;
  readStream(streamId: string, opts?: { fromVersion?: number }): Promise<RecordedEvent[]>;
  /** Events strictly after `from`, in global order. */
  readAll(from: Position, limit: number): Promise<RecordedEvent[]>;
  /** Follows `$all` from a position (exclusive), forever, until closed. */
  subscribe(from: Position, opts: SubscribeOptions): Subscription;
  /** The position of the newest event readers may see now. */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
