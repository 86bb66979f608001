import { Queryable, QueryResult } from '@quire/platform/db/db';

/** A transaction that can also run a multi-statement script (simple query protocol). */
export interface ScriptQueryable extends Queryable {
  exec(sql: string): Promise<void>;
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;
const RETURNING = /\bRETURNING\b/i;

/**
 * For rebuilds: coalesces a projection's write statements into multi-statement scripts, one
 * round trip per few hundred statements instead of one per statement (a replay is otherwise
 * bound by round trips, not by the database's work). Statements run in the order they were
 * issued, in the same transaction: a read flushes the writes before it, and so does the end of
 * the batch. Only for projections that never look at a write's result (`writeResultsUnused`):
 * a buffered write answers at once with no rows and rowCount 0.
 *
 * Parameters become quoted literals of the text node-postgres would send, which PostgreSQL
 * types from context exactly as it types unknown-typed parameters.
 */
export class WriteBatchingQueryable implements Queryable {
  private pending: string[] = [];

  constructor(
    private readonly tx: Queryable,
    private readonly runScript: (sql: string) => Promise<void>,
    private readonly maxStatements = 2000,
  ) {}

  async query<R = Record<string, any>>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
    if (WRITE.test(sql) && !RETURNING.test(sql)) {
      this.pending.push(inlineParams(sql, params));
      if (this.pending.length >= this.maxStatements) await this.flush();
      return { rows: [], rowCount: 0 };
    }
    await this.flush();
    return this.tx.query<R>(sql, params);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const script = this.pending.join(';\n') + ';';
    this.pending = [];
    await this.runScript(script);
  }
}

export function inlineParams(sql: string, params: unknown[]): string {
  if (params.length === 0) return sql;
  const literals = params.map(literal);
  return sql.replace(/\$(\d+)/g, (m, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= literals.length) throw new Error(`Statement refers to ${m} but has ${params.length} parameters`);
    return literals[i];
  });
}

/** The text node-postgres sends for a parameter, as a standard-conforming string literal. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return quote(paramText(value));
}

function paramText(value: unknown): string {
  if (Buffer.isBuffer(value)) return '\\x' + value.toString('hex');
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayText(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayText(values: unknown[]): string {
  return (
    '{' +
    values
      .map((v) => {
        if (v === null || v === undefined) return 'NULL';
        if (Array.isArray(v)) return arrayText(v);
        return '"' + paramText(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
      })
      .join(',') +
    '}'
  );
}

function quote(text: string): string {
  if (text.includes('\0')) throw new Error('A parameter holds a NUL character');
  return "'" + text.replace(/'/g, "''") + "'";
}
