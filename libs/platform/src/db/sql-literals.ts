/**
 * Parameters written into SQL text as literals, for where a statement cannot take them as
 * parameters: a rebuild's multi-statement scripts (libs/projections/write-batching.ts) and
 * PGlite's `EXECUTE` of a prepared statement (pglite-db.ts). Each literal is the text node-postgres
 * sends for the value, as a standard-conforming string constant, so PostgreSQL types it from
 * context exactly as it types an unknown-typed parameter.
 */

/** The statement with `$n` replaced by the literal of its n-th parameter. */
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

/** The text node-postgres sends for a parameter (not null). */
export function paramText(value: unknown): string {
  if (Buffer.isBuffer(value)) return '\\x' + value.toString('hex');
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayText(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An array's text input form: `{"a","b",NULL}`, nested arrays as nested braces. */
export function arrayText(values: unknown[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) text += ',';
    if (v === null || v === undefined) text += 'NULL';
    else if (Array.isArray(v)) text += arrayText(v);
    else {
      const element = paramText(v);
      text += '"' + (ARRAY_SPECIAL.test(element) ? element.replace(ARRAY_SPECIALS, '\\$&') : element) + '"';
    }
  }
  return text + '}';
}

const ARRAY_SPECIAL = /["\\]/;
const ARRAY_SPECIALS = /["\\]/g;

/** A standard-conforming string constant (quotes doubled; PostgreSQL's text holds no NUL). */
export function quote(text: string): string {
  if (text.includes('\0')) throw new Error('A parameter holds a NUL character');
  return "'" + (text.includes("'") ? text.replace(/'/g, "''") : text) + "'";
}
