import { Pool, PoolClient, types } from 'pg';
import { Db, Queryable, QueryOptions, QueryResult } from './db';

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

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
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

function wrap(client: PoolClient): Queryable {
  return {
    async query<R>(sql: string, params?: unknown[]) {
      const r = await client.query(sql, params as any[]);
      return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
    },
  };
}

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
