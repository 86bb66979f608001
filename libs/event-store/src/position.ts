/**
 * A point in the global order of events (`$all`). Ordered by `commit`, then `prepare`.
 * PostgreSQL: commit = the appending transaction's id (xid8), prepare = the event's sequence
 * number; readers only pass transactions older than every one still in flight, so an event
 * can never appear behind a checkpoint. KurrentDB: its own commit/prepare positions.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = Object.freeze({ commit: 0n, prepare: 0n });

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function formatPosition(p: Position): string {
  return `${p.commit}/${p.prepare}`;
}

export function parsePosition(s: string): Position {
  const m = /^(\d+)\/(\d+)$/.exec(s);
  if (!m) throw new Error(`Not a position: ${s}`);
  return { commit: BigInt(m[1]), prepare: BigInt(m[2]) };
}

export function maxPosition(a: Position, b: Position): Position {
  return comparePositions(a, b) >= 0 ? a : b;
}
