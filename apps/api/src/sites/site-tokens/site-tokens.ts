import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { errors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { DomainError } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';

/** How long a site token is valid: the renderer resolves its URL again for a new one. */
export const SITE_TOKEN_TTL_SECONDS = 3600;
const ALGORITHM = 'HS256';
const ISSUER = 'quire';
/**
 * A token signed for the same claims less than this long ago is issued again rather than a new
 * one: GitBook's renderer resolves a URL (and its prefixes) for every page it renders, and each
 * visitor's token then lives at most this much less than an hour.
 */
const REISSUE_MS = 60_000;
/** Tokens (and claims) kept per process; a renderer uses a handful per site at a time. */
const CACHED_TOKENS = 10_000;

/**
 * What a site token grants: reading the published content of one site, the one
 * `POST /v1/urls/published` resolved. GitBook's renderer decodes these claims (kind,
 * organization, site, siteSpace, space, spaces, exp), so their names are GitBook's.
 */
export interface SiteTokenClaims {
  kind: 'site';
  organization: string;
  site: string;
  siteSpace: string;
  space: string;
  /** Every space the site shows: the token reads these and nothing else. */
  spaces: string[];
  /** The share link the visitor came through, for a share-link site: the token dies with it. */
  shareLink?: string;
}

/** A string shaped like a JWT (three base64url parts), told apart from Quire's opaque API tokens. */
export const looksLikeJwt = (token: string) => /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/.test(token);

/**
 * Signs and verifies site tokens with an installation secret: QUIRE_SITE_TOKEN_KEY, or else a
 * random key generated at first use in DATA_DIR/secrets/site-token.key (created exclusively, so
 * processes sharing DATA_DIR agree on it). Replacing the key revokes every token in flight.
 */
@Injectable()
export class SiteTokens {
  private key?: Uint8Array;
  /** Tokens signed lately, by their claims (REISSUE_MS). */
  private readonly issued = new LRUCache<string, string>({ max: CACHED_TOKENS, ttl: REISSUE_MS });
  /**
   * Claims of tokens verified already, until they expire: a signed token never changes, and
   * whether its site still shows what it names is checked on every request (SiteVisitors).
   */
  private readonly verifiedTokens = new LRUCache<string, SiteTokenClaims>({ max: CACHED_TOKENS });

  constructor(@Inject(QUIRE_CONFIG) private readonly config: QuireConfig) {}

  /** A site token for `claims`: the one signed for the same claims within REISSUE_MS, or a new one. */
  async issue(claims: SiteTokenClaims): Promise<string> {
    const key = JSON.stringify(claims);
    const recent = this.issued.get(key);
    if (recent) return recent;
    const token = await this.sign(claims);
    this.issued.set(key, token);
    return token;
  }

  async sign(claims: SiteTokenClaims, now = new Date()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt(iat)
      .setExpirationTime(iat + SITE_TOKEN_TTL_SECONDS)
      .sign(this.signingKey());
  }

  /** The claims of a token verified already and not yet expired, if any: no promise. */
  verified(token: string): SiteTokenClaims | undefined {
    return this.verifiedTokens.get(token);
  }

  /** The claims of a valid, unexpired site token; a 401 for anything else. */
  async verify(token: string): Promise<SiteTokenClaims> {
    const known = this.verifiedTokens.get(token);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(token, this.signingKey(), { algorithms: [ALGORITHM], issuer: ISSUER });
      const p = payload as Partial<SiteTokenClaims>;
      const isId = (v: unknown) => typeof v === 'string' && v.length > 0;
      if (p.kind !== 'site' || typeof payload.exp !== 'number' || ![p.organization, p.site, p.siteSpace, p.space].every(isId) || !Array.isArray(p.spaces) || !p.spaces.every(isId)) {
        throw new DomainError('unauthorized', 'Invalid site token');
      }
      const claims: SiteTokenClaims = { kind: 'site', organization: p.organization!, site: p.site!, siteSpace: p.siteSpace!, space: p.space!, spaces: p.spaces, ...(p.shareLink ? { shareLink: p.shareLink } : {}) };
      // Kept until it expires (jwtVerify refused an expired one; exp is required by the check below).
      this.verifiedTokens.set(token, claims, { ttl: Math.max(1, payload.exp! * 1000 - Date.now()) });
      return claims;
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new DomainError('unauthorized', err instanceof errors.JWTExpired ? 'The site token has expired' : 'Invalid site token');
    }
  }

  private signingKey(): Uint8Array {
    if (!this.key) this.key = new TextEncoder().encode(this.config.siteTokenKey ?? installationKey(this.config.dataDir));
    return this.key;
  }
}

function installationKey(dataDir: string): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, 'site-token.key');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = readFileSync(file, 'utf8').trim();
  // A concurrent creator may not have written its key yet.
  if (key.length < 32) throw new DomainError('unavailable', 'The site token key is being created: retry');
  return key;
}
