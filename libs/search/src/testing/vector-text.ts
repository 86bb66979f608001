/**
 * A binary tsvector (tsvectorsend's format) written out as `lexeme:1A,4 lexeme2:3`, lexemes in
 * the order they were written and unquoted.
 */
export function vectorText(bytes: Buffer): string {
  const out: string[] = [];
  let at = 4;
  for (let i = bytes.readInt32BE(0); i > 0; i--) {
    const end = bytes.indexOf(0, at);
    const lexeme = bytes.toString('utf8', at, end);
    at = end + 1;
    const positions: string[] = [];
    for (let k = bytes.readUInt16BE(at), p = at + 2; k > 0; k--, p += 2) {
      const word = bytes.readUInt16BE(p);
      positions.push(`${word & 0x3fff}${['', 'C', 'B', 'A'][word >> 14]}`);
    }
    at += 2 + positions.length * 2;
    out.push(`${lexeme}:${positions.join(',')}`);
  }
  if (at !== bytes.length) throw new Error(`${bytes.length - at} bytes after the last lexeme`);
  return out.join(' ');
}
