import { Queryable } from '@quire/platform/db/db';
import { RecordedEvent } from '@quire/event-store/event-store.port';

/** Names a projection's tables: live ones in `public`, a rebuild's in its own schema. */
export type TableNamer = (table: string) => string;

/**
 * What the live runner offers `apply` besides the transaction. A rebuild (and a test calling
 * `apply` directly) passes none: the projection then does that work inside the transaction.
 */
export interface ApplyContext {
  /**
   * Runs `work` once the transaction has committed and its checkpoint is announced, outside any
   * transaction and one piece of work at a time: for what no reader waits on and nothing the
   * transaction writes depends on (planner statistics after a large change). A failure is
   * logged, never fails the batch.
   */
  afterCommit(work: (db: Queryable) => Promise<unknown>): void;
}

/**
 * A read model: owns its tables, applies events idempotently, and is rebuilt from zero when
 * its `version` changes. `apply` runs inside the transaction that also moves the checkpoint.
 */
export interface Projection {
  readonly name: string;
  readonly version: number;
  readonly tables: readonly string[];
  /** DDL creating the tables (and indexes) under the given names. */
  schema(t: TableNamer): string;
  /** Event types this projection reads; others only move its checkpoint. */
  readonly handles: readonly string[];
  apply(event: RecordedEvent, tx: Queryable, t: TableNamer, ctx?: ApplyContext): Promise<void>;
  /**
   * True when `apply` never looks at what its INSERT/UPDATE/DELETE statements return (rows,
   * rowCount): a rebuild may then send them in coalesced multi-statement round trips.
   */
  readonly writeResultsUnused?: boolean;
}

export const liveTables: TableNamer = (table) => table;
export const REBUILD_SCHEMA = 'quire_rebuild';
export const rebuildTables: TableNamer = (table) => `${REBUILD_SCHEMA}.${table}`;

export const PROJECTIONS = Symbol('PROJECTIONS');
