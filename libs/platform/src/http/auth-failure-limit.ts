import type { FastifyInstance } from 'fastify';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import { gitbookError } from './fastify-plumbing';

export interface AuthFailureLimitOptions {
  /** Failed authentications an address may have in a window before it is refused. */
  maxFailures: number;
  windowSeconds?: number;
  /** Keeps the counts, shared by every API replica (a connection of its own that fails fast);
   * without one, counts are kept in this process. */
  redis?: Redis;
  /** Key prefix, so that instances sharing a Redis keep separate counts. */
  keyPrefix: string;
}

/**
 * A limit on failed authentication per client address, on by default whatever QUIRE_RATE_LIMIT
 * says: tokens are long and found by hash, but nobody should get to guess at leisure. A failure
 * is an answer 401 to a request that presented credentials (an Authorization header: a Bearer
 * token, or the Basic login of the queues dashboard); a request without any is not a guess.
 * Past `maxFailures` in the window, every request from that address that presents credentials is
 * answered 429 with Retry-After until the window ends, before they are looked at (so a right
 * guess looks like a wrong one). Requests without credentials (the published site, health
 * checks) are neither counted nor refused, and cost no Redis round trip. The counts live in Redis like the rate limiter's windows,
 * and the same way a Redis that cannot answer lets requests through: the limit protects the
 * service, it must never be what takes it down. Behind a proxy, the address is the client's only
 * when the proxy is trusted (QUIRE_TRUST_PROXY); otherwise every client shares the proxy's.
 */
export function limitFailedAuthentication(fastify: FastifyInstance, opts: AuthFailureLimitOptions): void {
  const duration = opts.windowSeconds ?? 60;
  const limiter: RateLimiterAbstract = opts.redis
    ? new RateLimiterRedis({ storeClient: opts.redis, keyPrefix: opts.keyPrefix, points: opts.maxFailures, duration, rejectIfRedisNotReady: true })
    : new RateLimiterMemory({ keyPrefix: opts.keyPrefix, points: opts.maxFailures, duration });

  fastify.addHook('onRequest', async (req, reply) => {
    if (req.headers.authorization === undefined) return;
    const failures: RateLimiterRes | null = await limiter.get(req.ip).catch(() => null);
    if (!failures || failures.consumedPoints < opts.maxFailures) return;
    const seconds = Math.max(1, Math.ceil(failures.msBeforeNext / 1000));
    return reply
      .code(429)
      .header('retry-after', String(seconds))
      .header('content-type', 'application/json; charset=utf-8')
      .send(gitbookError(429, `Too many failed authentications from this address; retry in ${seconds} s`));
  });
  fastify.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode !== 401 || req.headers.authorization === undefined) return;
    await limiter.penalty(req.ip).catch(() => undefined);
  });
}
