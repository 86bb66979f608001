import { crc32, deflateSync } from 'zlib';

/** A real PNG (RGB, 8 bits) of the given size, filled with a colour derived from `seed`,
 * so different seeds give different blobs; with `noise`, pixels vary like a photo's and
 * the file stays about as large as the raw pixels. Test helper. */
export function pngBytes(width: number, height: number, seed = 0, noise = false): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const raw = Buffer.alloc(height * (1 + width * 3));
  let state = seed * 2654435761 + 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state = (Math.imul(state, 1103515245) + 12345) | 0;
      const jitter = noise ? (state >>> 16) & 0x3f : 0;
      raw.set([(seed * 37 + jitter) & 0xff, (seed * 91 + x + jitter) & 0xff, (seed * 53 + y) & 0xff], y * (1 + width * 3) + 1 + x * 3);
    }
  }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
