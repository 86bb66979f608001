import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import { addRequestCheck, sendGitbookError } from './fastify-plumbing';

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

/** How long a process trusts its last answer about an address that had no failure counted. */
const RECHECK_MS = 1000;

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
 *
 * Asking Redis on every authenticated request cost a round trip and ~10% of the CPU of a read
 * (profiled on GET /v1/spaces/{id}): each process keeps the last answer per address, and trusts
 * it only while it said the address had no failure at all (the common case: clients whose
 * credentials are right). An address with failures counted is asked about on every request, so
 * failures counted by other replicas block it here at once; a count this process learns (its own
 * failures' penalties, or a fresh read) blocks at once too. The one allowance: an address this
 * process last saw clean is asked again after RECHECK_MS, so in that time it may make one more
 * guess here after other replicas blocked it (whose failure then blocks it here as well).
 */
export function limitFailedAuthentication(fastify: FastifyInstance, opts: AuthFailureLimitOptions): void {
  const duration = opts.windowSeconds ?? 60;
  const limiter: RateLimiterAbstract = opts.redis
    ? new RateLimiterRedis({ storeClient: opts.redis, keyPrefix: opts.keyPrefix, points: opts.maxFailures, duration, rejectIfRedisNotReady: true })
    : new RateLimiterMemory({ keyPrefix: opts.keyPrefix, points: opts.maxFailures, duration });

  const known = new LRUCache<string, { checkedAt: number; failures: number; blockedUntil: number }>({ max: 10_000 });
  // A failure being counted: the address's next request waits for the count (as it queued
  // behind the penalty on the Redis connection when every request asked Redis).
  const counting = new Map<string, Promise<void>>();
  const record = (ip: string, failures: RateLimiterRes | null) => {
    const now = Date.now();
    const count = failures?.consumedPoints ?? 0;
    known.set(ip, { checkedAt: now, failures: count, blockedUntil: count >= opts.maxFailures ? now + failures!.msBeforeNext : 0 });
  };

  /** Refuses the request (429) when the address is blocked; false when it may go on. */
  const refuse = (reply: FastifyReply, blockedUntil: number): boolean => {
    const waitMs = blockedUntil - Date.now();
    if (waitMs <= 0) return false;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    void reply.header('retry-after', String(seconds));
    sendGitbookError(reply, 429, `Too many failed authentications from this address; retry in ${seconds} s`);
    return true;
  };
  const check = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    await counting.get(req.ip);
    const now = Date.now();
    let last = known.get(req.ip);
    if (!last || (last.blockedUntil <= now && (last.failures > 0 || now - last.checkedAt >= RECHECK_MS))) {
      const failures: RateLimiterRes | null = await limiter.get(req.ip).catch(() => null);
      record(req.ip, failures);
      last = known.get(req.ip)!;
    }
    return refuse(reply, last.blockedUntil);
  };

  // A request check with a synchronous path for the common case (an address this process saw
  // clean within RECHECK_MS, no failure being counted): every authenticated request passes here.
  addRequestCheck(fastify, (req, reply) => {
    if (req.headers.authorization === undefined) return false;
    const last = counting.has(req.ip) ? undefined : known.get(req.ip);
    if (last && last.failures === 0 && last.blockedUntil === 0 && Date.now() - last.checkedAt < RECHECK_MS) return false;
    return check(req, reply);
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    if (reply.statusCode !== 401 || req.headers.authorization === undefined) return done();
    const ip = req.ip;
    const counted = limiter.penalty(ip).then(
      (failures) => record(ip, failures),
      () => undefined,
    );
    counting.set(ip, counted);
    void counted.then(() => {
      if (counting.get(ip) === counted) counting.delete(ip);
      done();
    });
  });
}
