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

export function decodeCursor(page: string | undefined, arity: number): unknown[] | undefined {
  if (!page) return undefined;
  try {
    const key = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === arity) return key;
  } catch {
    /* falls through */
  }
  throw new InvalidCursorError();
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
