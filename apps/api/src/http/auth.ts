import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash } from 'crypto';
import { DomainError } from '@quire/domain';
import { IdentityQueries, UserRow } from '@quire/read-models/identity/identity.queries';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ReadCache, ReadCacheFollower } from '@quire/projections/read-cache';
import { looksLikeJwt, SiteTokenClaims } from '../sites/site-tokens/site-tokens';
import { SiteVisitors } from '../sites/site-tokens/site-visitors';
import { MaybePromise, thenMaybe } from '@quire/platform/maybe-promise';

export const INSTANCE_ADMIN_ID = 'instance-admin';

export interface Caller {
  user: UserRow;
  instanceAdmin: boolean;
  /**
   * Set for a site token (POST /v1/urls/published): a visitor of that site, who may only read
   * its published content; `spaces` are those it may read now. `user` is then a stand-in
   * without memberships or grants.
   */
  site?: SiteTokenClaims;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const PUBLIC = 'quire:public';
/** The route answers without a token. */
export const Public = () => SetMetadata(PUBLIC, true);

/**
 * Bearer token -> user. Callers are cached by token until an event about their user (its
 * stream or any event naming its id) has reached the identity read model: then evicted.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly callers: ReadCache<Caller>;
  private readonly adminHash?: string;
  private readonly publicRoutes = new WeakMap<Function, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityQueries,
    private readonly siteVisitors: SiteVisitors,
    @Inject(QUIRE_CONFIG) config: QuireConfig,
    readCaches: ReadCacheFollower,
  ) {
    this.adminHash = config.adminToken ? hashToken(config.adminToken) : undefined;
    this.callers = new ReadCache<Caller>({ name: 'callers', max: 10_000, readModels: ['identity'] }, readCaches);
  }

  /**
   * Synchronous for a caller already cached (Nest awaits only a guard that answers a promise):
   * every authenticated request passes here, and most are by a token seen before.
   */
  canActivate(context: ExecutionContext): MaybePromise<boolean> {
    if (this.isPublic(context)) return true;
    const request = context.switchToHttp().getRequest();
    const header: string | undefined = request.headers.authorization;
    const match = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new DomainError('unauthorized', 'Authentication required: send Authorization: Bearer <token>');
    const token = match[1];
    if (looksLikeJwt(token)) {
      return thenMaybe(this.siteVisitors.caller(token, request), (caller) => (request.caller = caller) !== undefined);
    }
    const known = this.callers.cached(token);
    if (known) {
      request.caller = known;
      return true;
    }
    return this.resolve(token).then((caller) => (request.caller = caller) !== undefined);
  }

  /** Whether the route answers without a token: route metadata, fixed at boot, read once per handler. */
  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.publicRoutes.get(handler);
    if (known === undefined) this.publicRoutes.set(handler, (known = !!this.reflector.getAllAndOverride<boolean>(PUBLIC, [handler, context.getClass()])));
    return known;
  }

  private async resolve(token: string): Promise<Caller> {
    // Keyed by the token itself: a hit costs no SHA-256 (2.4% of GET space's CPU in the profile).
    const caller = await this.callers.get(token, async () => {
      const hash = hashToken(token);
      const admin = this.adminHash !== undefined && hash === this.adminHash;
      const user = admin ? await this.identity.user(INSTANCE_ADMIN_ID) : await this.identity.userByTokenHash(hash);
      return user && { value: { user, instanceAdmin: admin || user.instance_admin }, tags: [user.id] };
    });
    if (!caller) throw new DomainError('unauthorized', 'Invalid or unknown access token');
    return caller;
  }
}

export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => ctx.switchToHttp().getRequest().caller);
