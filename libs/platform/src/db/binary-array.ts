/** Type ids of PostgreSQL's built-in types, for binary array parameters. */
export const PG_TYPE = { bytea: 17, tsvector: 3614 } as const;

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
  let size = 20;
  for (const element of elements) size += 4 + element.byteLength;
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0); // dimensions
  out.writeInt32BE(0, 4); // no NULL elements
  out.writeInt32BE(elementType, 8);
  out.writeInt32BE(elements.length, 12);
  out.writeInt32BE(1, 16); // lower bound
  let at = 20;
  for (const element of elements) {
    out.writeInt32BE(element.byteLength, at);
    out.set(element, at + 4);
    at += 4 + element.byteLength;
  }
  return out;
}
