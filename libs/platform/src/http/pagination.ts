import { z } from 'zod';

/** `limit` 1..1000 (default 100) and an opaque `page` cursor, as GitBook's List endpoints take. */
export const paginationQuery = {
  page: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
};

export interface ListResponse<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

/** Keyset cursors: the sort key of the last item, so pages stay right while rows change. */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** A cursor's timestamp: exactly what `toISOString()` wrote (so the database never sees a bad one). */
export const cursorTimestamp = z
  .string()
  .regex(/^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .refine((s) => {
    const t = Date.parse(s);
    return Number.isFinite(t) && new Date(t).toISOString() === s;
  });
/** A cursor's id: a non-empty string. */
export const cursorId = z.string().min(1).max(500);

/** `[createdAt, id]`: lists ordered by a timestamp then id. */
export const timeIdCursor = z.tuple([cursorTimestamp, cursorId]);
/** `[id]` (or any one sort string): lists ordered by a single text key. */
export const idCursor = z.tuple([cursorId]);

/**
 * Decodes a `page` cursor and checks it against the list's own typed schema (the tuple's
 * arity and every element's type); anything else is 400 "Invalid page cursor", never a query
 * error. A bare arity is still accepted for callers not yet given a schema.
 */
export function decodeCursor<T extends unknown[]>(page: string | undefined, schema: z.ZodType<T>): T | undefined;
export function decodeCursor(page: string | undefined, arity: number): unknown[] | undefined;
export function decodeCursor(page: string | undefined, shape: number | z.ZodType<unknown[]>): unknown[] | undefined {
  if (!page) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (typeof shape === 'number') {
    if (Array.isArray(key) && key.length === shape) return key;
    throw new InvalidCursorError();
  }
  const parsed = shape.safeParse(key);
  if (!parsed.success) throw new InvalidCursorError();
  return parsed.data;
}

export class InvalidCursorError extends Error {
  readonly code = 'bad_request';
  constructor() {
    super('Invalid page cursor');
  }
}

/** Builds a page from `limit + 1` fetched rows. */
export function toPage<Row, Item>(rows: Row[], limit: number, map: (r: Row) => Item, key: (r: Row) => unknown[], count?: number): ListResponse<Item> {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const out: ListResponse<Item> = { items: pageRows.map(map) };
  if (more) out.next = { page: encodeCursor(key(pageRows[pageRows.length - 1])) };
  if (count !== undefined) out.count = count;
  return out;
}
