import { Injectable } from '@nestjs/common';
import { DomainError, notFound } from '@quire/domain';
import { UserRow } from '@quire/read-models/identity/identity.queries';
import type { Caller } from '../../http/auth';
import { PublishedSites } from '../published/published-sites.service';
import { siteTokenMayCall } from './site-token-routes';
import { SiteTokenClaims, SiteTokens } from './site-tokens';
import { MaybePromise, thenMaybe } from '@quire/platform/maybe-promise';

/** What of the request decides whether a site token may make it. */
export interface SiteTokenRequest {
  method: string;
  routeOptions?: { url?: string };
  params?: Record<string, string>;
}

/**
 * The caller a site token stands for: a visitor of its site. It calls only the routes of
 * published content (siteTokenMayCall), and reads only the spaces its site shows now, among those
 * it was issued for: unpublishing the site, removing or hiding a space, and deactivating or
 * deleting the share link it was issued through take effect at once. A route about another space
 * answers 404 here, before any handler runs: AccessService relies on it.
 */
@Injectable()
export class SiteVisitors {
  constructor(
    private readonly tokens: SiteTokens,
    private readonly published: PublishedSites,
  ) {}

  /**
   * Synchronous for a token verified already whose site's state is kept (AuthGuard then answers
   * Nest without a promise): a renderer makes all its reads with one token.
   */
  caller(token: string, request: SiteTokenRequest): MaybePromise<Caller> {
    const claims = this.tokens.verified(token);
    if (!claims) return this.tokens.verify(token).then((verified) => this.callerFor(verified, request));
    return this.callerFor(claims, request);
  }

  private callerFor(claims: SiteTokenClaims, request: SiteTokenRequest): MaybePromise<Caller> {
    if (!siteTokenMayCall(request.method, request.routeOptions?.url)) {
      throw new DomainError('forbidden', "A site token only reads its site's published content");
    }
    return thenMaybe(this.published.spacesForToken(claims), (spaces) => this.visitor(claims, spaces, request));
  }

  private visitor(claims: SiteTokenClaims, spaces: readonly string[], request: SiteTokenRequest): Caller {
    const spaceId = request.params?.spaceId;
    if (spaceId !== undefined && !spaces.includes(spaceId)) throw notFound('Space not found');
    // One caller per answer of spacesForToken (a new array whenever the site's state changes).
    let caller = this.callers.get(spaces);
    if (!caller) {
      const user: UserRow = { id: `site-visitor:${claims.site}`, display_name: 'Site visitor', email: '', photo_url: null, instance_admin: false, created_at: new Date(0) };
      caller = { user, instanceAdmin: false, site: { ...claims, spaces: spaces as string[] } };
      this.callers.set(spaces, caller);
    }
    return caller;
  }

  private readonly callers = new WeakMap<readonly string[], Caller>();
}
