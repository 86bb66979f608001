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

export function newEventId(): string {
  return randomUUID();
}
