import { Pool, PoolClient, types } from 'pg';
import { Db, Queryable, QueryOptions, QueryResult, TransactionOptions } from './db';

const INT8 = 20;
const NUMERIC = 1700;
// Counts and versions are safe integers; positions are selected as text and parsed to bigint.
const typeParsers = {
  getTypeParser: (oid: number, format?: any) =>
    oid === INT8 || oid === NUMERIC ? (v: string) => Number(v) : types.getTypeParser(oid, format),
};

export class PgDb implements Db {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;

  constructor(connectionString: string, opts: { max?: number; applicationName?: string } = {}) {
    this.pool = new Pool({
      connectionString,
      max: opts.max ?? 20,
      application_name: opts.applicationName ?? 'quire',
      types: typeParsers as any,
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  async query<R>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<QueryResult<R>> {
    const r = await this.pool.query(opts?.name ? { name: opts.name, text: sql, values: params as any[] } : { text: sql, values: params as any[] });
    return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TransactionOptions): Promise<T> {
    const client = await this.pool.connect();
    const tx = wrap(client);
    try {
      // One simple-query script: the setting costs no round trip of its own.
      await tx.query(opts?.asyncCommit ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN');
      const result = await fn(tx);
      // Behind anything `fn` sent without waiting for it (wrap keeps the order).
      await tx.query('COMMIT');
      return result;
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async withConnection<T>(fn: (conn: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await fn(wrap(client));
    } finally {
      client.release();
    }
  }

  async acquireConnection(): Promise<Queryable & { release(): void }> {
    const client = await this.pool.connect();
    // A lost connection drops its advisory locks; the holder finds out on its next query.
    client.on('error', () => undefined);
    return { ...wrap(client), release: () => client.release(true) };
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.pool.connect();
    const handler = (msg: { channel: string; payload?: string }) => {
      if (msg.channel === channel) onNotify(msg.payload ?? '');
    };
    client.on('notification', handler);
    await client.query(`LISTEN ${quoteIdent(channel)}`);
    return async () => {
      client.off('notification', handler);
      await client.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      client.release();
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * One connection's queries, run one after another in the order they are made. A caller may send
 * a query without waiting for it and go on computing (the search indexer's writes): the next one
 * starts when it is done, as before, but queued here rather than in pg's Client, whose own queue
 * is deprecated (it goes in pg 9). A failed query does not stop the ones behind it; inside a
 * transaction they then fail as PostgreSQL's aborted transaction says.
 */
function wrap(client: PoolClient): Queryable {
  let tail: Promise<unknown> | undefined;
  return {
    async query<R>(sql: string, params?: unknown[]) {
      const run = () => client.query(sql, params as any[]);
      const sent = tail ? tail.then(run, run) : run();
      const done: Promise<unknown> = sent.then(
        () => undefined,
        () => undefined,
      );
      tail = done;
      void done.then(() => {
        if (tail === done) tail = undefined;
      });
      const r = await sent;
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    },
  };
}

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
