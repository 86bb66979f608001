import { randomBytes, randomUUID } from 'crypto';

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
 * The random bits and the variant are randomUUID's (drawn from its entropy cache: a randomBytes
 * call per id took ~40 times as long); the time and the version replace its first 52 bits.
 */
export function newEventId(): string {
  const now = Date.now();
  if (now !== eventIdMs) {
    const hex = now.toString(16).padStart(12, '0');
    eventIdMs = now;
    eventIdPrefix = `${hex.slice(0, 8)}-${hex.slice(8)}-7`;
  }
  return eventIdPrefix + randomUUID().slice(15);
}
let eventIdMs = -1;
let eventIdPrefix = '';
