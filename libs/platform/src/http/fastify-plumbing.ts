import { createHash } from 'crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitPluginOptions } from '@fastify/rate-limit';

/** GitBook's error body, for the answers Fastify gives before a route (and Nest's filter) runs. */
function gitbookError(code: number, message: string): { error: { code: number; message: string } } {
  return { error: { code, message } };
}

/** Answers `status` with GitBook's error body, from a hook or handler that runs before Nest's filter. */
export function sendGitbookError(reply: FastifyReply, status: number, message: string): void {
  void reply.code(status).header('content-type', 'application/json; charset=utf-8').send(gitbookError(status, message));
}

/**
 * A callback-style hook's asynchronous step (hooks on every request are callback-style so that
 * their common path makes no promise): the request goes on unless the step answered it (true);
 * a failure goes to Fastify's error handling.
 */
export function goOnUnlessAnswered(step: Promise<boolean>, done: (err?: Error) => void): void {
  step.then(
    (answered) => {
      if (!answered) done();
    },
    (err: Error) => done(err),
  );
}

/**
 * Fastify's JSON parser refuses an empty body ("Body cannot be empty"), but clients send
 * `Content-Type: application/json` with nothing on body-less POSTs (merge, update): that is no body.
 * Everything else goes to Fastify's own parser (prototype-poisoning checks included).
 */
export function jsonBodyParser(fastify: FastifyInstance): (req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => void {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig as { onProtoPoisoning?: 'error'; onConstructorPoisoning?: 'error' };
  const parse = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  return (req, body, done) => {
    const text = body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    parse(req, text, (err, value) => {
      if (err) return done(err);
      // PostgreSQL text and jsonb hold neither U+0000 nor half a surrogate pair, and only a JSON
      // escape can bring either in: refused here with a 400, not a 500 at the first write.
      const problem = SUSPECT_ESCAPE.test(text) ? unstorableText(value) : undefined;
      if (problem) return done(Object.assign(new Error(`Text must not contain ${problem}`), { statusCode: 400 }));
      done(null, value);
    });
  };
}

const SUSPECT_ESCAPE = /\\u(?:0000|d[89a-f])/i;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What the first string of a parsed JSON value (keys included) holds that PostgreSQL cannot store, if anything. */
function unstorableText(value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (value.includes('\0')) return 'the NUL character (\\u0000)';
    return LONE_SURROGATE.test(value) ? 'half of a UTF-16 surrogate pair (\\ud800-\\udfff alone)' : undefined;
  }
  const children = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.entries(value).flat() : [];
  for (const child of children) {
    const problem = unstorableText(child);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * An `onRequest` hook: a URL holding an encoded NUL (`%00`) in its path or query is a 400 in
 * GitBook's body. No id, path or query of the API can contain one, and PostgreSQL refuses it
 * in text, so it would otherwise surface as a 500 from the first query.
 */
export function refuseNulInUrl(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (!/%00/i.test(req.url)) return done();
  sendGitbookError(reply, 400, 'The URL must not contain the NUL character (%00)');
}

/** Fastify's `frameworkErrors`: a malformed URL (bad percent-encoding) is a 400 in GitBook's shape. */
export function frameworkErrors(error: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply): void {
  const badUrl = error.code === 'FST_ERR_BAD_URL';
  const status = badUrl ? 400 : ((error as { statusCode?: number }).statusCode ?? 400);
  sendGitbookError(reply, status, badUrl ? 'Malformed URL: it is not valid percent-encoding' : error.message);
}

/** Liveness, readiness and Prometheus scrapes are never limited. */
const UNLIMITED = /^\/(health(\/|$|\?)|metrics(\/|$|\?))/;

/** Where the rate-limit windows live when they are shared between API replicas. */
export interface SharedRateLimitStore {
  /** A Redis connection of its own that fails fast (no offline queue, short command timeout). */
  redis: unknown;
  /** Key prefix, so instances sharing a Redis keep separate windows. */
  nameSpace: string;
}

/**
 * QUIRE_RATE_LIMIT: requests per minute per access token (a client without one is counted by IP).
 * With `shared`, the windows are kept in Redis, so the limit holds across every API replica;
 * without it (no Redis), in this process only. A Redis that cannot answer lets requests through:
 * the limiter protects the service, it must never be what takes it down.
 */
export function rateLimitOptions(perMinute: number, shared?: SharedRateLimitStore): RateLimitPluginOptions {
  return {
    ...(shared ? { redis: shared.redis as RateLimitPluginOptions['redis'], nameSpace: shared.nameSpace, skipOnError: true } : {}),
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => {
      const auth = req.headers.authorization;
      const token = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth.trim())?.[1] : undefined;
      // Keyed by a digest: the window table holds no usable token.
      return token ? `token:${createHash('sha256').update(token).digest('base64url')}` : `ip:${req.ip}`;
    },
    allowList: (req) => UNLIMITED.test(req.url),
    // Thrown into the app's error filter, which answers GitBook's body; Retry-After is already set.
    errorResponseBuilder: (_req, ctx) =>
      Object.assign(new Error(`Rate limit exceeded: at most ${ctx.max} requests per minute; retry in ${ctx.after}`), { statusCode: 429 }),
  };
}
