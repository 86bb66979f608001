import { AsyncLocalStorage } from 'async_hooks';
import { PGlite, Transaction } from '@electric-sql/pglite';
import { Db, Queryable, QueryResult, TransactionOptions } from './db';
import { quoteIdent } from './pg-db';
import { lockPgliteDir } from './pglite-lock';

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

  async query<R>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
    const r = await (this.current.getStore() ?? this.pg).query<R>(sql, params as any[], this.options(params));
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
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
      query: async <R>(sql: string, params?: unknown[]) => {
        const r = await tx.query<R>(sql, params as any[], this.options(params));
        return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
      },
      exec: async (sql: string) => {
        await tx.exec(sql);
      },
    } as Queryable;
  }

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
