/** Type ids of PostgreSQL's built-in types, for binary array parameters. */
export const PG_TYPE = { bytea: 17, text: 25, tsvector: 3614 } as const;

/** A one-dimensional array's header: dimensions, NULL flag, element type, length, lower bound. */
const HEADER_BYTES = 20;

/**
 * A one-dimensional array parameter in PostgreSQL's binary format (array_send / array_recv), of
 * elements already in their type's binary format. Both adapters send a Uint8Array parameter as
 * binary, so PostgreSQL reads it without parsing text: a statement gives it its type with a cast
 * (`unnest($1::tsvector[])`), and the element type here must be that one.
 */
export function binaryArray(elementType: number, elements: readonly Uint8Array[]): Buffer {
  if (elements.length === 0) {
    const empty = Buffer.alloc(12);
    empty.writeInt32BE(elementType, 8);
    return empty;
  }
  let size = HEADER_BYTES;
  for (const element of elements) size += 4 + element.byteLength;
  const out = arrayWithHeader(size, elementType, elements.length);
  let at = HEADER_BYTES;
  for (const element of elements) {
    out.writeInt32BE(element.byteLength, at);
    out.set(element, at + 4);
    at += 4 + element.byteLength;
  }
  return out;
}

/**
 * A text[] parameter in binary format: each element as its UTF-8 bytes (`unnest($1::text[])`).
 * For long texts: `pg` sends a string array as a literal, escaping every element with two regular
 * expressions and concatenating them, and PostgreSQL parses the literal back character by
 * character. An INSERT of 3,001 rows of about 1 KB of JSON each from `unnest($1::text[])` (what an
 * import's search index caches per blob) took 42 ms as a literal and 18-24 ms so; of prose
 * without quotes, 21 ms and 15 ms.
 */
export function textArray(values: readonly string[]): Buffer {
  if (values.length === 0) return binaryArray(PG_TYPE.text, []);
  let size = HEADER_BYTES;
  for (const value of values) size += 4 + Buffer.byteLength(value, 'utf8');
  const out = arrayWithHeader(size, PG_TYPE.text, values.length);
  let at = HEADER_BYTES;
  for (const value of values) {
    const length = out.write(value, at + 4, 'utf8');
    out.writeInt32BE(length, at);
    at += 4 + length;
  }
  return out;
}

/** `size` bytes for a non-empty one-dimensional array, its header written; the elements follow it. */
function arrayWithHeader(size: number, elementType: number, count: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0); // dimensions
  out.writeInt32BE(0, 4); // no NULL elements
  out.writeInt32BE(elementType, 8);
  out.writeInt32BE(count, 12);
  out.writeInt32BE(1, 16); // lower bound
  return out;
}
