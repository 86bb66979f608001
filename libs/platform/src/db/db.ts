export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * A statement run very often under this name is parsed and planned once per connection
   * (a prepared statement on PostgreSQL; PGlite ignores it). One name, one SQL text.
   */
  name?: string;
  /**
   * An UPDATE that only recomputes columns derived from other stored values of the rows it
   * matches. A queryable that batches a rebuild's writes may hold it and run it once (however
   * often it was issued), after the writes issued around it and before anything reads, instead
   * of ending its batch there. The caller vouches that this gives the same rows: every row that
   * a write in between derived from values it has not recomputed yet is among the rows it matches.
   * Others run it at once.
   */
  recompute?: boolean;
}

export interface TransactionOptions {
  /**
   * The commit does not wait for the WAL flush (synchronous_commit off for this transaction): for
   * work a crash may lose, such as a rebuild's private tables before their swap. On PostgreSQL the
   * setting travels with the BEGIN, in the same round trip.
   */
  asyncCommit?: boolean;
}

export interface Queryable {
  query<R = Record<string, any>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<QueryResult<R>>;
}

/**
 * The one database port used by the event store and the read models: PostgreSQL through a
 * `pg` pool, or embedded PGlite. Both speak the same SQL.
 */
export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs a multi-statement script (DDL). */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** Holds one connection for the callback (session-level advisory locks live on it). */
  withConnection<T>(fn: (conn: Queryable) => Promise<T>): Promise<T>;
  /** A connection kept until released: session-level advisory locks live on it. */
  acquireConnection(): Promise<Queryable & { release(): void }>;
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
