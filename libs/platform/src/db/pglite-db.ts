import { AsyncLocalStorage } from 'async_hooks';
import { PGlite, Transaction } from '@electric-sql/pglite';
import { Db, Queryable, QueryOptions, QueryResult, TransactionOptions } from './db';
import { quoteIdent } from './pg-db';
import { lockPgliteDir } from './pglite-lock';
import { literal } from './sql-literals';

/**
 * Embedded PostgreSQL for the zero-setup start. PGlite is one connection: its
 * `transaction` holds it exclusively, so concurrent callers queue rather than interleave.
 */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  /**
   * PGlite has one session. A query issued from inside a transaction's callback (say, the event
   * store read during a rebuild's swap) must join that transaction, or it would wait for it forever.
   */
  private readonly current = new AsyncLocalStorage<Transaction>();

  private constructor(private readonly pg: PGlite, private readonly unlock?: () => Promise<void>) {}

  /** A directory is locked for this process first (see lockPgliteDir): a second opener is refused. */
  static async open(dataDir?: string): Promise<PgliteDb> {
    if (!dataDir) {
      const pg = new PGlite();
      await pg.waitReady;
      return new PgliteDb(pg);
    }
    const unlock = await lockPgliteDir(dataDir, (err) => process.stderr.write(`quire: lost the lock on ${dataDir}: ${err.message}\n`));
    try {
      const pg = new PGlite(dataDir);
      await pg.waitReady;
      return new PgliteDb(pg, unlock);
    } catch (err) {
      await unlock();
      throw err;
    }
  }

  async query<R>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<QueryResult<R>> {
    return this.run<R>(this.current.getStore(), sql, params, opts);
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TransactionOptions): Promise<T> {
    // One opened inside another's callback joins it, scripts included (PGlite's exec outside the
    // transaction would wait for it forever).
    const outer = this.current.getStore();
    if (outer) return fn(this.joined(outer));
    return this.pg.transaction(async (tx) => {
      if (opts?.asyncCommit) await tx.query(`SET LOCAL synchronous_commit = off`);
      return this.current.run(tx, () => fn(this.joined(tx)));
    });
  }

  /** A transaction's queryable: its queries, and its multi-statement scripts (a rebuild's coalesced writes). */
  private joined(tx: Transaction): Queryable {
    return {
      query: <R>(sql: string, params?: unknown[], opts?: QueryOptions) => this.run<R>(tx, sql, params, opts),
      exec: async (sql: string) => {
        await tx.exec(sql);
      },
    } as Queryable;
  }

  /**
   * Named statements are prepared once (`PREPARE`) and then run by `EXECUTE` with their parameters
   * as literals, as node-postgres prepares them once per connection: PGlite's `query` parses and
   * plans its statement again at every call (an append's statement cost 360 us a call that way,
   * 120 us as `EXECUTE`, against 183 us through a PL/pgSQL function that keeps its plan). A
   * statement is prepared outside transactions only: PGlite's one session queues a `PREPARE` from
   * outside behind the transaction, which could be waiting for it. A prepared statement outlives
   * the transaction it ran in. Uint8Array parameters go the usual way (see options).
   */
  private async run<R>(tx: Transaction | undefined, sql: string, params: unknown[] = [], opts?: QueryOptions): Promise<QueryResult<R>> {
    const name = opts?.name;
    if (name && !params.some((p) => p instanceof Uint8Array)) {
      let prepared = this.prepared.get(name);
      if (!prepared && !tx) {
        const statement: Prepared = { sql, done: false, ready: this.pg.exec(`PREPARE ${quoteIdent(name)} AS ${sql}`).then(() => void (statement.done = true)) };
        statement.ready.catch(() => this.prepared.get(name) === statement && this.prepared.delete(name));
        this.prepared.set(name, (prepared = statement));
      }
      // In a transaction, only one prepared already: one still being prepared waits for the transaction.
      if (prepared && prepared.sql === sql && (prepared.done || !tx)) {
        await prepared.ready;
        const execute = `EXECUTE ${quoteIdent(name)}${params.length ? `(${params.map(literal).join(', ')})` : ''}`;
        const r = await (tx ?? this.pg).query<R>(execute);
        return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
      }
    }
    const r = await (tx ?? this.pg).query<R>(sql, params as any[], this.options(params));
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  }

  /** The statements prepared (or being prepared) by name, with their text. */
  private readonly prepared = new Map<string, Prepared>();

  /**
   * A Uint8Array parameter goes in binary format, as `pg` sends a Buffer (see binaryArray):
   * PGlite would otherwise turn it into text with the serializer of the type the statement gives
   * it, and most types (arrays, tsvector) have none.
   */
  private options(params?: unknown[]): { serializers: Record<number, (value: unknown) => string> } | undefined {
    if (!params?.some((p) => p instanceof Uint8Array)) return undefined;
    return (this.binaryParameters ??= { serializers: binaryPassingSerializers(() => this.pg.serializers) });
  }

  /** The options of a query with a binary parameter, built once (they depend on no query). */
  private binaryParameters?: { serializers: Record<number, (value: unknown) => string> };

  withConnection<T>(fn: (conn: Queryable) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async acquireConnection(): Promise<Queryable & { release(): void }> {
    return { query: (sql, params) => this.query(sql, params), release: () => undefined };
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const unsubscribe = await this.pg.listen(quoteIdent(channel), onNotify);
    return async () => unsubscribe();
  }

  async close(): Promise<void> {
    try {
      await this.pg.close();
    } finally {
      await this.unlock?.();
    }
  }
}

/** A named statement: its text, and its PREPARE (done once that has run). */
interface Prepared {
  sql: string;
  ready: Promise<void>;
  done: boolean;
}

/**
 * PGlite's serializers (read at each call: PGlite adds array types' as it learns them), with a
 * Uint8Array passed through as it is (sent in binary format).
 */
function binaryPassingSerializers(defaults: () => Record<number, (value: unknown) => string>): Record<number, (value: unknown) => string> {
  return new Proxy({} as Record<number, (value: unknown) => string>, {
    get: (_, type) => (value: unknown) => {
      if (value instanceof Uint8Array) return value as unknown as string;
      const serialize = defaults()[type as unknown as number];
      return serialize ? serialize(value) : String(value);
    },
  });
}
