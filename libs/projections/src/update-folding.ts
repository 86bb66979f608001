/**
 * Folding successive updates of one row into one update, for rebuilds (write-batching.ts). A
 * rebuilt row often takes many small updates in one batch (a space's change-request counters move
 * three times per change request, its revision and `updated_at` once more): each is a new row
 * version with its index entries. Updates whose assignments are all of four simple shapes compose
 * exactly, so the row can take them as one:
 *
 * - `col = $n` or `col = <constant>`: the value replaces whatever came before;
 * - `col = col + $n` (an integer): deltas add up, and a delta after a value moves the value;
 * - `col = greatest(col, $n)` (a timestamp): the later instant wins, NULLs ignored as GREATEST does;
 * - `col = CASE WHEN $n = ANY(col) THEN col ELSE col || $n::text END` (a text[] kept as a set in
 *   first-seen order, as a change request's contributors): after a known array it is that array
 *   with the element added when missing.
 *
 * An update of any other shape, or a composition these rules do not cover (a delta after a
 * constant, a delta after `greatest`), is not folded: it runs as its own write after the folded one.
 */

type Assignment =
  | { kind: 'value'; value: unknown; type: string }
  | { kind: 'constant'; sql: string }
  | { kind: 'add'; delta: unknown; type: string }
  | { kind: 'greatest'; value: unknown; type: string }
  | { kind: 'append'; element: unknown };

type Shape =
  | { kind: 'value'; param: number }
  | { kind: 'constant'; sql: string }
  | { kind: 'add'; param: number }
  | { kind: 'greatest'; param: number }
  | { kind: 'append'; param: number };

/** An UPDATE of one row by key whose assignments all have a foldable shape. */
export interface FoldableUpdate {
  table: string;
  keyColumn: string;
  keyParam: number;
  assignments: [column: string, shape: Shape][];
}

const FOLDABLE = /^\s*UPDATE\s+([\w.]+)\s+SET\s+([\s\S]+?)\s+WHERE\s+(\w+)\s*=\s*\$(\d+)\s*$/i;
const CONSTANT = /^(NULL|TRUE|FALSE|-?\d+|'(?:[^']|'')*')$/i;
const INTEGER_TYPES = new Set(['integer', 'bigint', 'smallint']);
const TIMESTAMP = 'timestamp with time zone';
/** Instants JavaScript compares exactly: ISO 8601 with a zone and at most milliseconds. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d)$/;

const parsed = new Map<string, FoldableUpdate | null>();

/** The statement's foldable shape, when it has one (parameters typed as `types`, PostgreSQL's). */
export function foldableUpdate(sql: string, types: string[]): FoldableUpdate | undefined {
  let update = parsed.get(sql);
  if (update === undefined) {
    update = parse(sql) ?? null;
    parsed.set(sql, update);
  }
  if (!update) return undefined;
  for (const [, shape] of update.assignments) {
    if (shape.kind === 'add' && !INTEGER_TYPES.has(types[shape.param])) return undefined;
    if (shape.kind === 'greatest' && types[shape.param] !== TIMESTAMP) return undefined;
    if (shape.kind === 'append' && types[shape.param] !== 'text') return undefined;
  }
  return update;
}

function parse(sql: string): FoldableUpdate | undefined {
  const m = FOLDABLE.exec(sql);
  if (!m) return undefined;
  const assignments: [string, Shape][] = [];
  for (const part of splitTopLevel(m[2])) {
    const a = /^(\w+)\s*=\s*([\s\S]+)$/.exec(part.trim());
    if (!a) return undefined;
    const [, column, expr] = a;
    let p: RegExpExecArray | null;
    if ((p = /^\$(\d+)$/.exec(expr))) assignments.push([column, { kind: 'value', param: Number(p[1]) - 1 }]);
    else if (CONSTANT.test(expr) && !expr.includes('$')) assignments.push([column, { kind: 'constant', sql: expr }]);
    else if ((p = new RegExp(`^${column}\\s*\\+\\s*\\$(\\d+)$`).exec(expr))) assignments.push([column, { kind: 'add', param: Number(p[1]) - 1 }]);
    else if ((p = new RegExp(`^greatest\\(\\s*${column}\\s*,\\s*\\$(\\d+)\\s*\\)$`, 'i').exec(expr))) assignments.push([column, { kind: 'greatest', param: Number(p[1]) - 1 }]);
    else if ((p = appendShape(column).exec(expr)) && p[1] === p[2]) assignments.push([column, { kind: 'append', param: Number(p[1]) - 1 }]);
    else return undefined;
  }
  if (new Set(assignments.map(([c]) => c)).size !== assignments.length) return undefined;
  return { table: m[1], keyColumn: m[3], keyParam: Number(m[4]) - 1, assignments };
}

/** `CASE WHEN $n = ANY(col) THEN col ELSE col || $n[::text] END`: the element added when missing. */
function appendShape(column: string): RegExp {
  return new RegExp(`^CASE\\s+WHEN\\s+\\$(\\d+)\\s*=\\s*ANY\\s*\\(\\s*${column}\\s*\\)\\s+THEN\\s+${column}\\s+ELSE\\s+${column}\\s*\\|\\|\\s*\\$(\\d+)(?:::text)?\\s+END$`, 'i');
}

/** Splits at commas outside parentheses and string constants. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

/** The updates of one row folded so far. */
export class FoldedUpdate {
  private readonly assignments = new Map<string, Assignment>();

  constructor(
    private readonly table: string,
    private readonly keyColumn: string,
    private readonly key: unknown,
    private readonly keyType: string,
  ) {}

  static start(update: FoldableUpdate, params: unknown[], types: string[]): FoldedUpdate {
    const folded = new FoldedUpdate(update.table, update.keyColumn, params[update.keyParam], types[update.keyParam]);
    folded.fold(update, params, types);
    return folded;
  }

  /** Takes the next update of the same row (same table and key column); false, changing nothing, when it does not compose. */
  fold(update: FoldableUpdate, params: unknown[], types: string[]): boolean {
    if (update.table !== this.table || update.keyColumn !== this.keyColumn) return false;
    const composed: Assignment[] = [];
    for (const [column, shape] of update.assignments) {
      const a = compose(this.assignments.get(column), incoming(shape, params, types));
      if (!a) return false;
      composed.push(a);
    }
    update.assignments.forEach(([column], i) => this.assignments.set(column, composed[i]));
    return true;
  }

  /** One UPDATE doing what the folded ones did, its parameters and their types. */
  render(): { sql: string; params: unknown[]; types: string[] } {
    const params: unknown[] = [this.key];
    const types = [this.keyType];
    const param = (value: unknown, type: string) => {
      params.push(value);
      types.push(type);
      return `$${params.length}`;
    };
    const sets = [...this.assignments].map(([column, a]) => {
      switch (a.kind) {
        case 'constant':
          return `${column} = ${a.sql}`;
        case 'value':
          return `${column} = ${param(a.value, a.type)}`;
        case 'add':
          return `${column} = ${column} + ${param(a.delta, a.type)}`;
        case 'greatest':
          return `${column} = greatest(${column}, ${param(a.value, a.type)})`;
        case 'append': {
          const p = param(a.element, 'text');
          return `${column} = CASE WHEN ${p} = ANY(${column}) THEN ${column} ELSE ${column} || ${p}::text END`;
        }
      }
    });
    return { sql: `UPDATE ${this.table} SET ${sets.join(', ')} WHERE ${this.keyColumn} = $1`, params, types };
  }
}

function incoming(shape: Shape, params: unknown[], types: string[]): Assignment {
  switch (shape.kind) {
    case 'constant':
      return shape;
    case 'value':
      return { kind: 'value', value: params[shape.param], type: types[shape.param] };
    case 'add':
      return { kind: 'add', delta: params[shape.param], type: types[shape.param] };
    case 'greatest':
      return { kind: 'greatest', value: params[shape.param], type: types[shape.param] };
    case 'append':
      return { kind: 'append', element: params[shape.param] };
  }
}

function compose(before: Assignment | undefined, after: Assignment): Assignment | undefined {
  if (!before || after.kind === 'value' || after.kind === 'constant') return after;
  if (after.kind === 'add') {
    if (before.kind === 'add') {
      const delta = sum(before.delta, after.delta);
      return delta !== undefined ? { ...before, delta } : undefined;
    }
    // A NULL value stays NULL, as NULL + delta is.
    if (before.kind === 'value' && INTEGER_TYPES.has(before.type)) {
      if (before.value == null) return after.delta == null ? undefined : before;
      const moved = sum(before.value, after.delta);
      return moved !== undefined ? { ...before, value: moved } : undefined;
    }
    return undefined;
  }
  if (after.kind === 'append') {
    // A known array of strings takes a string element as array_append would, when it is missing
    // (text equality is string equality); a NULL element is left to PostgreSQL.
    if (before.kind !== 'value' || before.type !== 'text[]' || typeof after.element !== 'string') return undefined;
    const array = before.value;
    if (!Array.isArray(array) || !array.every((x) => typeof x === 'string')) return undefined;
    return array.includes(after.element) ? before : { ...before, value: [...array, after.element] };
  }
  // greatest
  if (before.kind === 'greatest' || (before.kind === 'value' && before.type === TIMESTAMP)) {
    if (after.value == null) return before;
    if (before.value == null) return { ...before, value: after.value };
    const a = instant(before.value);
    const b = instant(after.value);
    if (a === undefined || b === undefined) return undefined;
    return b > a ? { ...before, value: after.value } : before;
  }
  return undefined;
}

function sum(a: unknown, b: unknown): number | undefined {
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isSafeInteger(a) || !Number.isSafeInteger(b)) return undefined;
  const s = a + b;
  return Number.isSafeInteger(s) ? s : undefined;
}

function instant(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.getTime() : undefined;
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The expressions of an INSERT's single VALUES row (split at top-level commas) and where the row ends. */
export function insertValues(sql: string): { start: number; end: number; exprs: string[] } | undefined {
  const m = /\bVALUES\s*\(/i.exec(sql);
  if (!m) return undefined;
  const start = m.index + m[0].length;
  const exprs: string[] = [];
  let depth = 0;
  let from = start;
  for (let i = start; i < sql.length; i++) {
    const c = sql[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) {
        exprs.push(sql.slice(from, i).trim());
        return { start: m.index, end: i + 1, exprs };
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      exprs.push(sql.slice(from, i).trim());
      from = i + 1;
    }
  }
  return undefined;
}

/**
 * An INSERT of one row, `INSERT INTO t (cols) VALUES (exprs)` with nothing after it or with
 * `ON CONFLICT (key) DO NOTHING`, keyed by a parameter (the conflict target, or the first column).
 * Updates of the row that follow it may fold into it (FoldedInsert).
 */
export interface FoldableInsert {
  table: string;
  keyColumn: string;
  keyParam: number;
  doNothing: boolean;
  columns: [column: string, value: InsertValue][];
}

/** A parameter, a constant, or another expression (parameters and constants only: rowWrite lets nothing else in). */
type InsertValue = { kind: 'param'; param: number } | { kind: 'constant'; sql: string } | { kind: 'expression'; sql: string };

const INSERT_HEAD = /^\s*INSERT\s+INTO\s+([\w.]+)\s*\(([^)]*)\)\s*VALUES\s*\(/i;
const DO_NOTHING = /^\s*ON\s+CONFLICT\s*\(\s*(\w+)\s*\)\s*DO\s+NOTHING\s*$/i;
const insertsParsed = new Map<string, FoldableInsert | null>();

/** The statement's foldable shape, when it has one (a row write of write-batching.ts, without lookups). */
export function foldableInsert(sql: string): FoldableInsert | undefined {
  let insert = insertsParsed.get(sql);
  if (insert === undefined) {
    insert = parseInsert(sql) ?? null;
    insertsParsed.set(sql, insert);
  }
  return insert ?? undefined;
}

function parseInsert(sql: string): FoldableInsert | undefined {
  const head = INSERT_HEAD.exec(sql);
  if (!head) return undefined;
  // String constants masked, at the same length, to find the end of the row.
  const masked = sql.replace(/'(?:[^']|'')*'/g, (c) => `'${'_'.repeat(c.length - 2)}'`);
  const row = insertValues(masked);
  if (!row) return undefined;
  const inner = sql.slice(head.index + head[0].length, row.end - 1);
  const tail = sql.slice(row.end);
  const conflict = DO_NOTHING.exec(tail);
  if (!conflict && !/^\s*$/.test(tail)) return undefined;
  const names = head[2].split(',').map((c) => c.trim());
  const exprs = splitTopLevel(inner).map((e) => e.trim());
  if (names.length !== exprs.length || names.some((n) => !/^\w+$/.test(n)) || new Set(names).size !== names.length) return undefined;
  const columns = names.map((name, i): [string, InsertValue] => {
    const e = exprs[i];
    const p = /^\$(\d+)$/.exec(e);
    if (p) return [name, { kind: 'param', param: Number(p[1]) - 1 }];
    if (CONSTANT.test(e) && !e.includes('$')) return [name, { kind: 'constant', sql: e }];
    return [name, { kind: 'expression', sql: e }];
  });
  const keyColumn = conflict ? conflict[1] : names[0];
  const key = columns.find(([n]) => n === keyColumn)?.[1];
  if (key?.kind !== 'param') return undefined;
  return { table: head[1], keyColumn, keyParam: key.param, doNothing: !!conflict, columns };
}

type InsertedValue = Assignment | { kind: 'expression'; sql: string };

/**
 * An INSERT and the updates of its row that followed it, as one INSERT of the row they leave.
 * An update folds in when each of its assignments composes with what the row holds: a value or a
 * constant replaces anything (a column the INSERT left to its default is then named); a delta, a
 * later instant or an added element needs a known value there (a parameter of the INSERT).
 *
 * With `ON CONFLICT (key) DO NOTHING` the row may have been there before: then the INSERT does
 * nothing and the updates apply to that row. So the updates, folded as FoldedUpdate, run just
 * before the INSERT (`pre`): they find the earlier row if there is one (and the INSERT then does
 * nothing), or nothing at all (and the INSERT writes the row as the updates leave it). A row known
 * to be new (`fresh`: see RowsWritten) needs no such updates.
 */
export class FoldedInsert {
  /** What the row holds, by column: filled when the first update comes. */
  private values?: Map<string, InsertedValue>;
  private update?: FoldedUpdate;

  private constructor(
    private readonly insert: FoldableInsert,
    private readonly sql: string,
    private readonly params: unknown[],
    private readonly types: string[],
    private readonly fresh: boolean,
  ) {}

  static start(insert: FoldableInsert, sql: string, params: unknown[], types: string[], fresh = false): FoldedInsert {
    return new FoldedInsert(insert, sql, params, types, fresh);
  }

  private inserted(): Map<string, InsertedValue> {
    const values = new Map<string, InsertedValue>();
    for (const [column, v] of this.insert.columns) {
      if (v.kind === 'param') values.set(column, { kind: 'value', value: this.params[v.param], type: this.types[v.param] });
      else if (v.kind === 'constant') values.set(column, v);
      // Renumbered when rendered: its parameters keep their values.
      else values.set(column, { kind: 'expression', sql: v.sql });
    }
    return values;
  }

  /** Takes the next update of the row; false, changing nothing, when it does not compose. */
  fold(update: FoldableUpdate, params: unknown[], types: string[]): boolean {
    if (update.table !== this.insert.table || update.keyColumn !== this.insert.keyColumn) return false;
    const values = this.values ?? this.inserted();
    const composed: [string, Assignment][] = [];
    for (const [column, shape] of update.assignments) {
      if (column === this.insert.keyColumn) return false;
      const after = incoming(shape, params, types);
      const before = values.get(column);
      const a =
        before && before.kind !== 'expression' ? compose(before, after) : after.kind === 'value' || after.kind === 'constant' ? after : undefined;
      // A value or a constant after composing (a delta or a later instant of an unknown value is not).
      if (!a || (a.kind !== 'value' && a.kind !== 'constant')) return false;
      composed.push([column, a]);
    }
    if (this.insert.doNothing && !this.fresh) {
      if (!this.update) this.update = FoldedUpdate.start(update, params, types);
      else if (!this.update.fold(update, params, types)) return false;
    }
    for (const [column, a] of composed) values.set(column, a);
    this.values = values;
    return true;
  }

  /** The INSERT (as it came when nothing folded into it), and the updates to run before it. */
  render(): { sql: string; params: unknown[]; types: string[]; pre?: { sql: string; params: unknown[]; types: string[] } } {
    if (!this.values) return { sql: this.sql, params: this.params, types: this.types };
    const params: unknown[] = [];
    const types: string[] = [];
    const param = (value: unknown, type: string) => {
      params.push(value);
      types.push(type);
      return `$${params.length}`;
    };
    const renumbered = new Map<number, string>();
    const exprs = [...this.values.values()].map((v) => {
      switch (v.kind) {
        case 'value':
          return param(v.value, v.type);
        case 'constant':
          return v.sql;
        case 'expression':
          return v.sql.replace(/\$(\d+)/g, (_, n: string) => {
            const i = Number(n) - 1;
            let p = renumbered.get(i);
            if (!p) renumbered.set(i, (p = param(this.params[i], this.types[i])));
            return p;
          });
        default:
          throw new Error(`An INSERT holds no ${v.kind}`);
      }
    });
    const sql =
      `INSERT INTO ${this.insert.table} (${[...this.values.keys()].join(', ')}) VALUES (${exprs.join(', ')})` +
      (this.insert.doNothing ? ` ON CONFLICT (${this.insert.keyColumn}) DO NOTHING` : '');
    return { sql, params, types, pre: this.update?.render() };
  }
}
