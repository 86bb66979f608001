import type { Queryable } from './db';

/** Share of the analyzed rows that may change before statistics count as outdated: autovacuum's own default (`autovacuum_analyze_scale_factor`). */
export const ANALYZE_SCALE_FACTOR = 0.1;

/**
 * Whether a table's planner statistics no longer describe it once `adding` more rows join it:
 * it was never analyzed (or was empty then), or the rows changed since its last ANALYZE, these
 * included, pass `scaleFactor` (by default a tenth) of the rows that ANALYZE counted.
 */
export async function statisticsOutgrown(tx: Queryable, table: string, adding: number, scaleFactor = ANALYZE_SCALE_FACTOR): Promise<boolean> {
  const r = await tx.query<{ analyzed: number | null; changed: number | null }>(
    `SELECT c.reltuples::float8 AS analyzed, s.n_mod_since_analyze::float8 AS changed
       FROM pg_class c LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid
      WHERE c.oid = to_regclass($1)`,
    [table],
  );
  const analyzed = r.rows[0]?.analyzed ?? -1;
  if (analyzed <= 0) return true;
  return (r.rows[0]?.changed ?? 0) + adding > analyzed * scaleFactor;
}
