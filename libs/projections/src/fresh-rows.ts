import { COPY_NULL, copyField } from '@quire/platform/db/db';
import { insertValues } from './update-folding';

/**
 * A rebuild's INSERTs of rows known to be new (RowsWritten: its tables start empty), loaded with
 * COPY instead (write-batching.ts). Such an INSERT conflicts with no row on its conflict target, so
 * its ON CONFLICT clause never acts and it writes exactly the row it names; COPY writes that row
 * with about half the server's work of an INSERT from unnested arrays, and the statement's text
 * (megabytes of array literals in a large rebuild) is neither built nor parsed. A row that breaks
 * another unique index fails either way.
 */

/** An INSERT of one row whose values are all parameters or constants. */
export interface CopyableInsert {
  table: string;
  columns: string[];
  /** Each column's parameter (its index) or constant (its text, null for NULL). */
  values: ({ param: number } | { text: string | null })[];
  /** The conflict target's columns, when the INSERT has an ON CONFLICT clause. */
  conflictTarget?: string[];
}

const INSERT_HEAD = /^\s*INSERT\s+INTO\s+([\w.]+)\s*\(([^)]*)\)\s*VALUES\s*\(/i;
const CONFLICT = /^\s*ON\s+CONFLICT\s*\(\s*(\w+(?:\s*,\s*\w+)*)\s*\)\s*DO\s+(NOTHING|UPDATE\s+SET\s[\s\S]*)$/i;
const parsedInserts = new Map<string, CopyableInsert | null>();

/** The statement's shape when COPY may write its row for it (cached by statement text). */
export function copyableInsert(sql: string): CopyableInsert | undefined {
  let insert = parsedInserts.get(sql);
  if (insert === undefined) {
    insert = parse(sql) ?? null;
    parsedInserts.set(sql, insert);
  }
  return insert ?? undefined;
}

function parse(sql: string): CopyableInsert | undefined {
  const head = INSERT_HEAD.exec(sql);
  if (!head) return undefined;
  // String constants masked, at the same length, to find the end of the row.
  const masked = sql.replace(/'(?:[^']|'')*'/g, (c) => `'${'_'.repeat(c.length - 2)}'`);
  const row = insertValues(masked);
  if (!row) return undefined;
  const columns = head[2].split(',').map((c) => c.trim());
  if (row.exprs.length !== columns.length || columns.some((c) => !/^\w+$/.test(c))) return undefined;
  let at = row.start + masked.slice(row.start).indexOf('(') + 1;
  const values: CopyableInsert['values'] = [];
  for (const expr of row.exprs) {
    // The expression's own text (constants unmasked): the masked row keeps every offset.
    const start = masked.indexOf(expr, at);
    const text = sql.slice(start, start + expr.length);
    at = start + expr.length;
    const param = /^\$(\d+)$/.exec(text);
    if (param) values.push({ param: Number(param[1]) - 1 });
    else {
      const constant = constantText(text);
      if (constant === undefined) return undefined;
      values.push({ text: constant });
    }
  }
  const tail = sql.slice(row.end);
  if (/^\s*$/.test(tail)) return { table: head[1], columns, values };
  const conflict = CONFLICT.exec(tail);
  if (!conflict) return undefined;
  return { table: head[1], columns, values, conflictTarget: conflict[1].split(',').map((c) => c.trim()) };
}

/**
 * A constant's text as its column's input reads it (as PostgreSQL reads an untyped literal):
 * null for NULL, undefined when the expression is no plain constant.
 */
export function constantText(sql: string): string | null | undefined {
  if (/^NULL$/i.test(sql)) return null;
  if (/^(TRUE|FALSE)$/i.test(sql)) return sql.toLowerCase();
  if (/^-?\d+$/.test(sql)) return sql;
  if (/^'(?:[^']|'')*'$/.test(sql)) return sql.slice(1, -1).replace(/''/g, "'");
  return undefined;
}

/** One line of COPY's text format: each field's text (null for NULL) escaped, tab separated. */
export function copyLine(fields: readonly (string | null)[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (i > 0) line += '\t';
    if (field === null) line += COPY_NULL;
    else {
      if (field.includes('\0')) throw new Error('A parameter holds a NUL character');
      line += copyField(field);
    }
  }
  return line + '\n';
}
