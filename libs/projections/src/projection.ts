import { Queryable } from '@quire/platform/db/db';
import { RecordedEvent } from '@quire/event-store/event-store.port';

/** Names a projection's tables: live ones in `public`, a rebuild's in its own schema. */
export type TableNamer = (table: string) => string;

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
  apply(event: RecordedEvent, tx: Queryable, t: TableNamer): Promise<void>;
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
