import { createHash } from 'crypto';
import { badRequest, IntegrationAsset } from '@quire/domain';

/** The image formats an icon or preview may have, by their first bytes. */
function sniff(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  const head = bytes.subarray(0, 512).toString('utf8').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

/** Decodes an inline image, checks its kind and size, and names it by content hash. */
export function decodeAsset(base64: string, field: string, maxBytes: number): IntegrationAsset {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badRequest(`Invalid body: ${field}: is empty`);
  if (bytes.length > maxBytes) throw badRequest(`Invalid body: ${field}: is larger than ${Math.round(maxBytes / 1024)} KB`);
  const contentType = sniff(bytes);
  if (!contentType) throw badRequest(`Invalid body: ${field}: must be a PNG, JPEG, GIF, WebP or SVG image`);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), contentType, base64: bytes.toString('base64') };
}
