import { createHmac, hkdfSync, timingSafeEqual } from 'crypto';
import { QuireConfig } from '@quire/platform/config/config';

const derivedKeys = new Map<string, Buffer>();

/**
 * A site share link's secret key: an HMAC of the site and link ids under a key derived from
 * QUIRE_SECRET_KEY for this purpose only, as for share-link spaces (spaces/share-links.ts):
 * nothing secret is stored, deleting the link revokes it, and so does a new QUIRE_SECRET_KEY.
 * Undefined without a secret key.
 */
export function siteShareKey(config: Pick<QuireConfig, 'secretKey'>, siteId: string, shareLinkId: string): string | undefined {
  if (!config.secretKey) return undefined;
  let key = derivedKeys.get(config.secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', config.secretKey, 'quire', 'site-share-links', 32));
    derivedKeys.set(config.secretKey, key);
  }
  return createHmac('sha256', key).update(`${siteId}:${shareLinkId}`).digest('base64url').slice(0, 32);
}

/** The share link among `links` whose key `candidate` is, if any. */
export function shareLinkOpenedBy(config: Pick<QuireConfig, 'secretKey'>, siteId: string, links: ReadonlyArray<{ id: string }>, candidate: string | undefined): string | undefined {
  if (!candidate) return undefined;
  const given = Buffer.from(candidate);
  return links.find((link) => {
    const expected = siteShareKey(config, siteId, link.id);
    return expected !== undefined && expected.length === candidate.length && timingSafeEqual(given, Buffer.from(expected));
  })?.id;
}
