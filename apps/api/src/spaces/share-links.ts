import { createHmac, hkdfSync, timingSafeEqual } from 'crypto';
import { QuireConfig } from '@quire/platform/config/config';

/** The site's query parameter that carries a share key (`urls.published` of a share-link space). */
export const SHARE_PARAM = 'share';

type ShareFacts = { id: string; visibility: string | null; share_generation: number };

const derivedKeys = new Map<string, Buffer>();

/**
 * A share-link space's secret key: an HMAC, under a key derived from QUIRE_SECRET_KEY for this
 * purpose only, of the space id and how many times the space became share-link. Nothing secret
 * is stored (events and read models hold the generation, a counter): going back to share-link
 * after another visibility hands out a new key and revokes the old links, and so does a new
 * QUIRE_SECRET_KEY. Undefined without a secret key or before the space was ever share-link.
 */
export function shareKey(config: Pick<QuireConfig, 'secretKey'>, space: Pick<ShareFacts, 'id' | 'share_generation'>): string | undefined {
  if (!config.secretKey || !space.share_generation) return undefined;
  let key = derivedKeys.get(config.secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', config.secretKey, 'quire', 'share-links', 32));
    derivedKeys.set(config.secretKey, key);
  }
  return createHmac('sha256', key).update(`${space.id}:${space.share_generation}`).digest('base64url').slice(0, 32);
}

/** True when `candidate` is the current share key of a space whose visibility is share-link. */
export function opensShareLink(config: Pick<QuireConfig, 'secretKey'>, space: ShareFacts, candidate: unknown): boolean {
  if (space.visibility !== 'share-link' || typeof candidate !== 'string') return false;
  const expected = shareKey(config, space);
  if (!expected || candidate.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(candidate), Buffer.from(expected));
}
