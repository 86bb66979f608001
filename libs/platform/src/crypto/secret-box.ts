import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'crypto';

/**
 * A sealed value: AES-256-GCM under a key derived (HKDF-SHA256) from QUIRE_SECRET_KEY for one
 * purpose. `kid` names the derived key (a hash of it, never the key) so a value sealed under
 * another QUIRE_SECRET_KEY is recognised as such instead of failing as "corrupt".
 */
export interface SealedSecret {
  alg: 'aes-256-gcm';
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

export class SecretKeyMissingError extends Error {
  readonly code = 'secret_key_missing';
  constructor() {
    super('QUIRE_SECRET_KEY is not configured');
  }
}

export class SecretOpenError extends Error {
  readonly code = 'secret_open_failed';
}

/**
 * Encrypts and decrypts small secrets. `context` is bound as additional authenticated data, so
 * a ciphertext copied to another record (another integration) does not open there.
 */
export class SecretBox {
  private readonly key: Buffer;
  readonly kid: string;

  constructor(secretKey: string, purpose: string) {
    if (!secretKey) throw new SecretKeyMissingError();
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secretKey, 'utf8'), Buffer.from('quire'), Buffer.from(purpose, 'utf8'), 32));
    this.kid = createHash('sha256').update(this.key).digest('hex').slice(0, 16);
  }

  /** A box for `purpose`, or undefined when no QUIRE_SECRET_KEY is configured. */
  static forPurpose(secretKey: string | undefined, purpose: string): SecretBox | undefined {
    return secretKey ? new SecretBox(secretKey, purpose) : undefined;
  }

  seal(plaintext: string, context: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { alg: 'aes-256-gcm', kid: this.kid, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  open(sealed: SealedSecret, context: string): string {
    if (sealed.alg !== 'aes-256-gcm') throw new SecretOpenError(`Unsupported algorithm ${sealed.alg}`);
    if (sealed.kid !== this.kid) throw new SecretOpenError('The secret was sealed under another QUIRE_SECRET_KEY');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError('The secret does not open: tampered with, or sealed for another record');
    }
  }
}
