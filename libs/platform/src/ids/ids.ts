import { randomBytes } from 'crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A GitBook-style entity id (matches `^[a-zA-Z0-9_-]+$`), 20 base62 characters (~119 bits). */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    // 248 = 62 * 4: rejecting larger bytes keeps the distribution uniform.
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
  }
  return out.length === length ? out : out + newId(length - out.length);
}

/**
 * A UUIDv7 (RFC 9562): the millisecond it was made, then 74 random bits. Ids made close in time
 * sort close together, so the event store's unique index on event ids takes each new one near its
 * right edge instead of on a random leaf page (in 100-event appends, a fifth of the database's
 * CPU per event went there with random ids, and more pages written after each checkpoint).
 */
export function newEventId(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
