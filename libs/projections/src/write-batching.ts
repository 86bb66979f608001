import { Queryable, QueryOptions, QueryResult } from '@quire/platform/db/db';
import { arrayText, inlineParams, paramText, quote } from '@quire/platform/db/sql-literals';
import { FoldableInsert, FoldableUpdate, FoldedInsert, FoldedUpdate, foldableInsert, foldableUpdate, insertValues } from './update-folding';

/** A transaction that can also run a multi-statement script (simple query protocol). */
export interface ScriptQueryable extends Queryable {
  exec(sql: string): Promise<void>;
}

/**
 * What the batching queryables of one rebuild (or comparison) learn about statements and tables,
 * shared between them: the schema does not change while they run, so each is asked once.
 */
export class StatementFacts {
  /** Parameter types PostgreSQL infers for a statement, by statement text. */
  readonly parameterTypes = new Map<string, Promise<string[] | undefined>>();
  /** The columns of each unique index, by table. */
  readonly uniqueIndexes = new Map<string, Promise<string[][]>>();
  /** What each statement text is and how its writes are held, by statement text (plan). */
  readonly plans = new Map<string, StatementPlan>();
}

/** A read (it runs what is held first), a write run alone, or a row write and how it is held. */
type StatementPlan = 'read' | 'write' | RowWritePlan;

interface RowWritePlan {
  row: RowWrite;
  /** The parameters' types, PostgreSQL's. */
  types: string[];
  rowKey: RowKey[];
  /** The key columns, comma separated: how the writes key its table's rows. */
  columns: string;
  /** Each table the write keys (its own, and the tables it looks up in), by its key columns. */
  keyed: { table: string; column: string }[];
  /** An UPDATE that later updates of its row may fold into. */
  foldable?: FoldableUpdate;
  /** An INSERT that updates of its row may fold into. */
  insert?: FoldableInsert;
}

/**
 * The rows one projection's rebuild has written so far, by table and key, in tables it created
 * empty and owns: a key not among them has no row yet, so an INSERT of it conflicts with nothing
 * and a FoldedInsert needs no updates for an earlier row. A write that may touch any row forgets
 * them all, and so does a rebuild past a million keys (then every folded INSERT carries them).
 */
export class RowsWritten {
  private readonly keys = new Set<string>();
  private known = true;
  /** The key columns each table's rows were written under: keys under other columns say nothing of them. */
  private readonly keyColumns = new Map<string, string>();

  constructor(private readonly limit = 1_000_000) {}

  /** True when no write to the row has been issued. */
  none(key: string): boolean {
    return this.known && !this.keys.has(key);
  }

  /** Before a write's none/wrote: a table written under other key columns than before forgets them all. */
  keyedBy(table: string, columns: string): void {
    const before = this.keyColumns.get(table);
    if (before !== undefined && before !== columns) this.forget();
    this.keyColumns.set(table, columns);
  }

  wrote(key: string): void {
    if (!this.known) return;
    this.keys.add(key);
    if (this.keys.size > this.limit) this.forget();
  }

  forget(): void {
    this.known = false;
    this.keys.clear();
  }
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;
const RETURNING = /\bRETURNING\b/i;

/**
 * For rebuilds: runs a projection's write statements set-based. A write that touches only rows
 * whose key column equals one of its text parameters (`UPDATE t SET ... WHERE id = $1 [AND ...]`,
 * `DELETE FROM t WHERE id = $1 ...`, `INSERT INTO t (...) VALUES (...) ON CONFLICT (id, ...)`, none
 * of them reading other rows) is a row write. Row writes are held and grouped into rounds: the
 * n-th write to a row goes into round n, so within a round no two writes touch the same row and
 * their order does not matter; the writes of a round that share a statement text become one
 * statement over their parameters, unnested from one array per parameter (typed as PostgreSQL
 * types the parameters of the statement). Rounds run in order, so each row sees its writes in the order they were issued.
 *
 * A row write may also read single rows by key (`(SELECT expr FROM t WHERE id = $n)`, a lookup):
 * it then goes into a round after the last held write to each row it reads, and later writes to
 * those rows go into rounds after it, so the lookup sees each row as the writes before it left it.
 *
 * Successive updates of one row with nothing reading the row in between fold into one when their
 * assignments compose (update-folding.ts): the row then takes one new version instead of several.
 * They fold into the INSERT of the row before them too (FoldedInsert), which then writes the row as
 * they leave it; given RowsWritten (a rebuild's empty tables), a row known to be new takes nothing
 * else.
 *
 * A recomputation (`recompute`, an UPDATE of derived columns) is held, once per statement and
 * parameters, and runs after the held rounds, wherever they end. Successive recomputations of one
 * statement text whose assignments use no parameter run as one statement over their parameters
 * (unnested, as above): it matches every row one of them matches and derives each once, from the
 * same stored values each would read (a recomputed column is derived from other columns).
 *
 * Every other write is a barrier: the held rounds run first, then the write, alone. A read runs
 * what is held before it, and so does the end of the batch. What is ready goes to the database as
 * multi-statement scripts, one round trip per few hundred statements, in the same transaction.
 * Only for projections that never look at a write's result (`writeResultsUnused`): a held write
 * answers at once with no rows and rowCount 0.
 *
 * Parameters become quoted literals of the text node-postgres would send, which PostgreSQL
 * types from context exactly as it types unknown-typed parameters.
 */
export class WriteBatchingQueryable implements Queryable {
  private script: string[] = [];
  /** Row writes not yet rendered: per round, per statement text, the parameter lists. */
  private rounds: Map<string, unknown[][]>[] = [];
  /** Folded updates and inserts not yet rendered, per round. */
  private folds: (FoldedUpdate | FoldedInsert)[][] = [];
  /** The folded update or insert each row took last, and its round (a later foldable update of the row joins it). */
  private readonly lastFold = new Map<string, { fold: FoldedUpdate | FoldedInsert; round: number }>();
  private heldRows = 0;
  /** Recomputations held, in the order first issued: a statement text and its parameter lists, by their inlined text. */
  private recomputes: { sql: string; lists: Map<string, unknown[]> }[] = [];
  /** The inlined text of every recomputation held: each runs once. */
  private readonly recomputed = new Set<string>();
  /** The next round of each row (table, key value). */
  private readonly rowRound = new Map<string, number>();
  /** The key column each table's held writes use: a write keyed on another column ends the rounds first. */
  private readonly keyColumns = new Map<string, string>();

  constructor(
    private readonly tx: Queryable,
    private readonly runScript: (sql: string) => Promise<void>,
    private readonly maxStatements = 2000,
    private readonly facts: StatementFacts = new StatementFacts(),
    private readonly maxHeldRows = 10_000,
    /** Given for tables a rebuild created empty: which rows it has written. */
    private readonly written?: RowsWritten,
  ) {}

  query<R = Record<string, any>>(sql: string, params: unknown[] = [], opts?: QueryOptions): Promise<QueryResult<R>> {
    // A row write of a known text is held at once: no async step (a promise and microtasks per write).
    const plan = opts?.recompute ? undefined : this.facts.plans.get(sql);
    if (typeof plan === 'object' && this.heldRows + 1 < this.maxHeldRows && this.holds(plan, sql, params)) return HELD as Promise<QueryResult<R>>;
    return this.slowQuery<R>(sql, params, opts);
  }

  private async slowQuery<R>(sql: string, params: unknown[], opts?: QueryOptions): Promise<QueryResult<R>> {
    if (opts?.recompute && /^\s*UPDATE\b/i.test(sql)) {
      const inlined = inlineParams(sql, params);
      if (this.recomputed.has(inlined)) return { rows: [], rowCount: 0 };
      this.recomputed.add(inlined);
      const last = this.recomputes[this.recomputes.length - 1];
      if (last?.sql === sql && (await this.mergesRecomputes(sql, params))) last.lists.set(inlined, params);
      else this.recomputes.push({ sql, lists: new Map([[inlined, params]]) });
      return { rows: [], rowCount: 0 };
    }
    const plan = this.facts.plans.get(sql) ?? (await this.plan(sql, params));
    if (plan === 'read') {
      await this.flush();
      return this.tx.query<R>(sql, params);
    }
    if (plan !== 'write' && this.holds(plan, sql, params)) {
      if (this.heldRows >= this.maxHeldRows) await this.flush();
    } else {
      this.written?.forget();
      this.seal();
      await this.push(inlineParams(sql, params));
    }
    return { rows: [], rowCount: 0 };
  }

  /** Holds a row write (or folds it into the row's last one); false, holding nothing, when these parameters make it no row write. */
  private holds(plan: RowWritePlan, sql: string, params: unknown[]): boolean {
    const { row, rowKey, types, foldable } = plan;
    if (types.length !== params.length) return false;
    for (const k of rowKey) if (params[k.param] == null) return false;
    for (const k of plan.keyed) {
      if ((this.keyColumns.get(k.table) ?? k.column) !== k.column) {
        this.seal();
        break;
      }
    }
    for (const k of plan.keyed) this.keyColumns.set(k.table, k.column);
    let key = `${row.table}\0${keyText(params[rowKey[0].param])}`;
    for (let i = 1; i < rowKey.length; i++) key += `\0${keyText(params[rowKey[i].param])}`;
    // Nothing wrote or read the row since its last folded update: that round is still its last.
    const last = foldable && this.lastFold.get(key);
    if (last && this.rowRound.get(key) === last.round + 1 && last.fold.fold(foldable, params, types)) return true;
    // After the last write to the row itself and to every row it looks up (a NULL key looks up nothing).
    let round = this.rowRound.get(key) ?? 0;
    let read: string[] | undefined;
    for (const l of row.lookups) {
      if (params[l.param] == null) continue;
      const k = `${l.table}\0${keyText(params[l.param])}`;
      (read ??= []).push(k);
      round = Math.max(round, this.rowRound.get(k) ?? 0);
    }
    this.rowRound.set(key, round + 1);
    // Later writes to a row looked up here must not run before this read.
    for (const k of read ?? []) this.rowRound.set(k, Math.max(this.rowRound.get(k) ?? 0, round + 1));
    this.written?.keyedBy(row.table, plan.columns);
    const fresh = this.written?.none(key) ?? false;
    this.written?.wrote(key);
    if (foldable || plan.insert) {
      const fold = foldable ? FoldedUpdate.start(foldable, params, types) : FoldedInsert.start(plan.insert!, sql, params, types, fresh);
      (this.folds[round] ??= []).push(fold);
      this.lastFold.set(key, { fold, round });
    } else {
      this.lastFold.delete(key);
      this.hold(round, sql, params);
    }
    this.heldRows++;
    return true;
  }

  async flush(): Promise<void> {
    this.seal();
    if (this.script.length === 0) return;
    const script = this.script.join(';\n') + ';';
    this.script = [];
    await this.runScript(script);
  }

  private async push(statement: string): Promise<void> {
    this.script.push(statement);
    if (this.script.length >= this.maxStatements) await this.flush();
  }

  private hold(round: number, sql: string, params: unknown[]): void {
    group((this.rounds[round] ??= new Map()), sql, params);
  }

  /**
   * Renders the held rounds, in order, into the script (their types are known: they were asked for
   * on the way in, or folded). A folded INSERT's updates for a row that was already there run first
   * in its round: nothing else in the round touches that row.
   */
  private seal(): void {
    const pre: Map<string, unknown[][]>[] = [];
    for (const [round, folds] of this.folds.entries()) {
      for (const fold of folds ?? []) {
        const r: ReturnType<FoldedInsert['render']> = fold.render();
        if (r.pre) {
          this.knownTypes.set(r.pre.sql, r.pre.types);
          group((pre[round] ??= new Map()), r.pre.sql, r.pre.params);
        }
        this.knownTypes.set(r.sql, r.types);
        this.hold(round, r.sql, r.params);
      }
    }
    for (let round = 0; round < this.rounds.length; round++) {
      for (const groups of [pre[round], this.rounds[round]]) {
        for (const [sql, rows] of groups ?? []) {
          this.script.push(rows.length === 1 ? inlineParams(sql, rows[0]) : setBased(sql, rows, this.typesOf(sql)));
        }
      }
    }
    for (const { sql, lists } of this.recomputes) {
      const rows = [...lists.values()];
      this.script.push(rows.length === 1 ? inlineParams(sql, rows[0]) : setBased(sql, rows, this.typesOf(sql)));
    }
    this.recomputes = [];
    this.recomputed.clear();
    this.rounds = [];
    this.folds = [];
    this.lastFold.clear();
    this.heldRows = 0;
    this.rowRound.clear();
    this.keyColumns.clear();
  }

  private readonly knownTypes = new Map<string, string[] | undefined>();

  /** The parameter types of a held statement: asked for on its way in (its plan), or rendered from folds. */
  private typesOf(sql: string): string[] {
    const plan = this.facts.plans.get(sql);
    return (this.knownTypes.get(sql) ?? (typeof plan === 'object' ? plan.types : undefined))!;
  }

  /** Whether recomputations of one text may run as one statement: its parameters are typed, and its assignments use none. */
  private async mergesRecomputes(sql: string, params: unknown[]): Promise<boolean> {
    if (params.length === 0 || !/\sWHERE\s/i.test(sql)) return false;
    const head = sql.slice(0, topLevelWhere(sql));
    // The batch's unnest becomes its FROM: a statement with one of its own stays alone.
    let outer = head.replace(/'(?:[^']|'')*'/g, "''");
    while (/\([^()]*\)/.test(outer)) outer = outer.replace(/\([^()]*\)/g, '');
    if (/\$\d/.test(head) || /\bFROM\b/i.test(outer)) return false;
    const types = this.knownTypes.has(sql) ? this.knownTypes.get(sql) : await this.parameterTypes(sql);
    return !!types && types.length === params.length;
  }

  /**
   * What a statement text is (a read, a write run alone, or a row write and how it is held),
   * learnt on its first write with `params` and kept in the facts: later writes of the text take
   * one lookup and no await (a microtask per write) on the way.
   */
  private async plan(sql: string, params: unknown[]): Promise<StatementPlan> {
    const row = classify(sql);
    if (row === 'read' || row === 'write' || params.length === 0) {
      const plan = row === 'read' ? 'read' : 'write';
      this.facts.plans.set(sql, plan);
      return plan;
    }
    const types = await this.parameterTypes(sql);
    let plan: StatementPlan = 'write';
    const equalities = types ? row.equalities.filter((e) => types[e.param] === 'text') : [];
    const key = types && rowKey(row, equalities, equalities.length > 1 ? await this.uniqueIndexes(row.table) : []);
    if (
      types &&
      key &&
      types.length === params.length &&
      key.every((k) => types[k.param] === 'text') &&
      row.lookups.every((l) => types[l.param] === 'text') &&
      !crossesRows(row, key, sql, await this.uniqueIndexes(row.table))
    ) {
      const columns = key.length === 1 ? row.column : key.map((k) => k.column).join(',');
      const single = key.length === 1 && row.lookups.length === 0;
      const foldable = single ? foldableUpdate(sql, types) : undefined;
      const insert = single && !foldable ? foldableInsert(sql) : undefined;
      plan = {
        row,
        types,
        rowKey: key,
        columns,
        keyed: [{ table: row.table, column: columns }, ...row.lookups],
        foldable,
        insert: insert?.keyColumn === row.column ? insert : undefined,
      };
    }
    this.facts.plans.set(sql, plan);
    return plan;
  }

  /** The columns of each unique index of a table (every column an expression index mentions). */
  private uniqueIndexes(table: string): Promise<string[][]> {
    let known = this.facts.uniqueIndexes.get(table);
    if (!known) {
      known = this.tx
        .query<{ columns: string[] }>(
          `SELECT CASE WHEN i.indexprs IS NULL THEN '{}' ELSE '{(expression)}' END::text[] || array(SELECT a.attname::text FROM pg_attribute a
                         WHERE a.attrelid = i.indrelid AND a.attnum > 0
                           AND (a.attnum = ANY(i.indkey) OR (i.indexprs IS NOT NULL AND pg_get_indexdef(i.indexrelid) ~ ('\\m' || a.attname || '\\M')))
                         ORDER BY array_position(i.indkey::int2[], a.attnum) NULLS LAST) AS columns
             FROM pg_index i WHERE i.indrelid = $1::regclass AND i.indisunique`,
          [table],
        )
        .then((r) => r.rows.map((x) => x.columns));
      this.facts.uniqueIndexes.set(table, known);
    }
    return known;
  }

  /** The types PostgreSQL gives the statement's parameters (PREPARE, read, DEALLOCATE; once per statement text). */
  private async parameterTypes(sql: string): Promise<string[] | undefined> {
    if (this.knownTypes.has(sql)) return this.knownTypes.get(sql);
    let pending = this.facts.parameterTypes.get(sql);
    if (!pending) {
      pending = describeParameters(this.tx, sql);
      this.facts.parameterTypes.set(sql, pending);
    }
    const types = await pending;
    this.knownTypes.set(sql, types);
    return types;
  }
}

/** What a held write answers: its results are never looked at (writeResultsUnused). */
const HELD: Promise<QueryResult<never>> = Promise.resolve(Object.freeze({ rows: Object.freeze([]) as never[], rowCount: 0 }));

/** A key parameter's text (a key is text: its parameter is typed so). */
function keyText(value: unknown): string {
  return typeof value === 'string' ? value : paramText(value);
}

function group(groups: Map<string, unknown[][]>, sql: string, params: unknown[]): void {
  const rows = groups.get(sql);
  if (rows) rows.push(params);
  else groups.set(sql, [params]);
}

/**
 * The columns that tell the row a write touches, with their parameters: its key column alone,
 * unless no unique index is that column alone and a unique index led by it has each of its
 * columns held equal to a text parameter by the write (the conflict target, or the condition's
 * `column = $n` terms): a composite primary key, such as an organization's members. Writes to
 * different members of one organization then go into the same round, not one round each.
 */
function rowKey(row: RowWrite, equalities: RowKey[], uniques: string[][]): RowKey[] {
  if (equalities.length < 2 || uniques.some((columns) => columns.length === 1 && columns[0] === row.column)) return [row];
  const byColumn = new Map(equalities.map((e) => [e.column, e]));
  const index = uniques.find((columns) => columns.length > 1 && columns[0] === row.column && columns.every((c) => byColumn.has(c)));
  return index ? index.map((c) => byColumn.get(c)!) : [row];
}

/**
 * Writes to different rows commute unless a unique index spans them: a value one row gives up
 * may be taken by another, and which comes first decides whether that fails. A unique index led
 * by the key columns is safe (rows with different keys differ in it; rows sharing a key keep
 * their order); for any other, a row write must neither delete, nor assign one of its columns,
 * nor insert without naming the key's conflict target (two rows inserting the same value then
 * fail alike, in any order).
 */
function crossesRows(row: RowWrite, key: RowKey[], sql: string, uniques: string[][]): boolean {
  const keyColumns = new Set(key.map((k) => k.column));
  const ledByKey = (columns: string[]) => columns.length >= keyColumns.size && columns.slice(0, keyColumns.size).every((c) => keyColumns.has(c));
  const spanning = new Set(uniques.filter((columns) => !ledByKey(columns)).flat());
  if (spanning.size === 0) return false;
  if (/^\s*DELETE\b/i.test(sql)) return true;
  if (/^\s*INSERT\b/i.test(sql) && !row.conflictTarget) return true;
  const assignments = /\bSET\b([\s\S]*?)(\bWHERE\b|$)/i.exec(sql.replace(/'(?:[^']|'')*'/g, "''").replace(LOOKUP, 'NULL'))?.[1] ?? '';
  const assigned = [...assignments.matchAll(/(\w+)\s*=/g)].map((m) => m[1]);
  return assigned.some((column) => spanning.has(column));
}

let prepared = 0;

/** Undefined when PostgreSQL cannot type them all (the write then runs alone, its literals typed from context). */
async function describeParameters(tx: Queryable, sql: string): Promise<string[] | undefined> {
  const name = `quire_describe_${process.pid}_${++prepared}`;
  await tx.query(`SAVEPOINT ${name}`);
  try {
    await tx.query(`PREPARE ${name} AS ${sql}`);
  } catch {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    return undefined;
  }
  try {
    const r = await tx.query<{ types: string[] }>(`SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = $1`, [name]);
    return r.rows[0].types;
  } finally {
    await tx.query(`DEALLOCATE ${name}`);
    await tx.query(`RELEASE SAVEPOINT ${name}`);
  }
}

/** A statement that is not a write (or whose result is looked at), a write of one row, or another write (once per text: see plan). */
function classify(sql: string): RowWrite | 'write' | 'read' {
  return !WRITE.test(sql) || RETURNING.test(sql) ? 'read' : (rowWrite(sql) ?? 'write');
}

interface RowWrite extends RowKey {
  /** An INSERT naming its conflict target (led by the key column). */
  conflictTarget?: boolean;
  /** Rows the write reads, each by one key parameter. */
  lookups: RowKey[];
  /**
   * The key column and parameter first, then every other column the write holds equal to a
   * parameter: the rest of its conflict target, or its condition's other `column = $n` terms.
   */
  equalities: RowKey[];
}

interface RowKey {
  table: string;
  column: string;
  /** Index of the parameter holding the key value. */
  param: number;
}

const UPDATE = /^\s*UPDATE\s+([\w.]+)(?:\s+(?:AS\s+)?\w+)?\s+SET\s[\s\S]*?\sWHERE\s+(?:\w+\.)?(\w+)\s*=\s*\$(\d+)(?=\s*$|\s+AND\s)/i;
const DELETE = /^\s*DELETE\s+FROM\s+([\w.]+)(?:\s+(?:AS\s+)?\w+)?\s+WHERE\s+(?:\w+\.)?(\w+)\s*=\s*\$(\d+)(?=\s*$|\s+AND\s)/i;
const INSERT = /^\s*INSERT\s+INTO\s+([\w.]+)(?:\s+AS\s+\w+)?\s*\(([^)]*)\)\s*VALUES\s*\(/i;
const CONFLICT_TARGET = /\)\s*ON\s+CONFLICT\s*\(\s*(\w+(?:\s*,\s*\w+)*)\s*\)/i;
/** A scalar subquery reading one row by key: `(SELECT expr FROM table WHERE column = $n)`, expr without parentheses. */
const LOOKUP = /\(\s*SELECT\s+[^()]*?\sFROM\s+([\w.]+)\s+WHERE\s+(\w+)\s*=\s*\$(\d+)\s*\)/gi;

/**
 * The row a write touches, when it touches only rows whose key column equals one parameter and
 * reads no other row but lookups (single rows by one key parameter): no other subquery, no
 * FROM/USING, no OR in its condition, nothing but parameters, constants and lookups in the row it
 * inserts.
 */
export function rowWrite(sql: string): RowWrite | undefined {
  // String constants may stay, as long as no `$` inside one could be taken for a parameter.
  const constants = sql.match(/'(?:[^']|'')*'/g) ?? [];
  if (constants.some((c) => c.includes('$'))) return undefined;
  const lookups: RowKey[] = [];
  // Lookups become NULL for the checks below (parameter numbers stay where they were).
  const code = sql.replace(/'(?:[^']|'')*'/g, "''").replace(LOOKUP, (_, table: string, column: string, param: string) => {
    lookups.push({ table, column, param: Number(param) - 1 });
    return 'NULL';
  });
  if (/\bSELECT\b|\bUSING\b|\bWITH\b/i.test(code)) return undefined;
  // An UPDATE's or DELETE's condition (its last clause: there is no subquery) must not widen past the key.
  if (/^\s*(UPDATE|DELETE)\b/i.test(code) && /\bOR\b/i.test(code.slice(code.search(/\sWHERE\s/i)))) return undefined;
  if ((code.match(/\bFROM\b/gi)?.length ?? 0) > (/^\s*DELETE\b/i.test(code) ? 1 : 0)) return undefined;
  const update = UPDATE.exec(code) ?? DELETE.exec(code);
  if (update) {
    const key = { table: update[1], column: update[2], param: Number(update[3]) - 1 };
    // No subquery is left: the first WHERE is the statement's, and its terms are joined by AND.
    const condition = code.slice(code.search(/\sWHERE\s/i) + 6).split(/\s+AND\s+/i);
    const equalities = [key];
    for (const term of condition) {
      const m = /^\s*(?:\w+\.)?(\w+)\s*=\s*\$(\d+)\s*$/.exec(term);
      if (m && !equalities.some((e) => e.column === m[1])) equalities.push({ table: key.table, column: m[1], param: Number(m[2]) - 1 });
    }
    return { ...key, lookups, equalities };
  }
  const insert = INSERT.exec(code);
  if (!insert) return undefined;
  const columns = insert[2].split(',').map((c) => c.trim());
  const values = insertValues(code);
  if (!values || values.exprs.length !== columns.length) return undefined;
  const target = CONFLICT_TARGET.exec(code.slice(values.end - 1));
  // A conflict target that is not a list of columns (an expression's) keys nothing.
  if (!target && /^\s*ON\s+CONFLICT\s*\(/i.test(code.slice(values.end))) return undefined;
  const targetColumns = target ? target[1].split(',').map((c) => c.trim()) : [columns[0]];
  const equalities: RowKey[] = [];
  for (const column of targetColumns) {
    const expr = values.exprs[columns.indexOf(column)];
    const param = expr !== undefined ? /^\$(\d+)$/.exec(expr) : null;
    if (!param) break;
    equalities.push({ table: insert[1], column, param: Number(param[1]) - 1 });
  }
  if (equalities.length === 0) return undefined;
  // Only an ON CONFLICT clause may follow the row.
  if (!/^\s*(ON\s+CONFLICT\b[\s\S]*)?$/i.test(code.slice(values.end))) return undefined;
  // A target column that is no parameter leaves the key its leading columns (the first one at least).
  return { ...equalities[0], conflictTarget: !!target, lookups, equalities };
}

const BATCH = 'quire_batch';

/**
 * One statement applying a row write to every parameter list (each touching a different row). The
 * parameters travel as one array literal per parameter, unnested in the statement's FROM: one
 * string constant each, where a VALUES list is parsed, analysed and planned as one expression per
 * parameter and row (about a quarter of PostgreSQL's time in a rebuild). unnest flattens every
 * dimension, so an array-typed parameter travels as the text of each array and is cast back where
 * the statement uses it (the cast reads it as the parameter's input would).
 */
function setBased(sql: string, rows: unknown[][], types: string[]): string {
  const columns = types.map((_, i) => `p${i + 1}`);
  const isArray = types.map((t) => t.endsWith(']'));
  const arrays = types.map((type, i) => {
    const values = rows.map((params) => params[i]);
    return isArray[i]
      ? `${quote(arrayText(values.map((v) => (v == null ? null : paramText(v)))))}::text[]`
      : `${quote(arrayText(values))}::${type}[]`;
  });
  const source = `unnest(${arrays.join(', ')}) AS ${BATCH}(${columns.join(', ')})`;
  const body = sql.replace(/\$(\d+)/g, (_, n: string) => (isArray[Number(n) - 1] ? `${BATCH}.p${n}::${types[Number(n) - 1]}` : `${BATCH}.p${n}`));
  if (/^\s*(UPDATE|DELETE)\b/i.test(body)) {
    // Before the statement's own condition, not a lookup's.
    const where = topLevelWhere(body);
    return `${body.slice(0, where)} ${/^\s*UPDATE\b/i.test(body) ? 'FROM' : 'USING'} ${source}${body.slice(where)}`;
  }
  const row = insertValues(body)!;
  return `${body.slice(0, row.start)}SELECT ${row.exprs.join(', ')} FROM ${source}${body.slice(row.end)}`;
}

/** Where the WHERE outside every parenthesis and string constant begins (the statement's own condition). */
function topLevelWhere(sql: string): number {
  const code = sql.replace(/'(?:[^']|'')*'/g, (c) => ' '.repeat(c.length));
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')') depth--;
    else if (depth === 0 && /\s/.test(code[i - 1] ?? '') && /^WHERE\s/i.test(code.slice(i, i + 6))) return i - 1;
  }
  throw new Error('A row write without a condition');
}
