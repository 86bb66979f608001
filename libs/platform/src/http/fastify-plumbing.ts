import { createHash } from 'crypto';
import { maxHeaderSize, STATUS_CODES } from 'http';
import type { Duplex } from 'stream';
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
 * A check every request passes before its route (shutdown, encoded NUL, failed-authentication
 * limit, the job dashboard's gate, custom hostnames' sites): true when it answered the request
 * itself (refused or served it), false when the request goes on. Synchronous on its common path,
 * so that most requests pass every check without a promise.
 */
export type RequestCheck = (req: FastifyRequest, reply: FastifyReply) => boolean | Promise<boolean>;

const requestChecks = new WeakMap<FastifyInstance, RequestCheck[]>();

/**
 * Adds `check` to the one `onRequest` hook that runs every module's checks, in the order they
 * were added. Fastify runs each hook as a step of its own, which cost a warm read 2-5% of its CPU
 * per hook (perf); one hook dispatching them costs that once. Add checks before the server is
 * ready: they then apply to every route and to the not-found handler.
 */
export function addRequestCheck(fastify: FastifyInstance, check: RequestCheck): void {
  let checks = requestChecks.get(fastify);
  if (!checks) {
    const all: RequestCheck[] = [];
    requestChecks.set(fastify, (checks = all));
    fastify.addHook('onRequest', (req, reply, done) => runChecks(all, 0, req, reply, done));
  }
  checks.push(check);
}

/** Runs checks[from..] until one answers the request; a failure goes to Fastify's error handling. */
function runChecks(checks: RequestCheck[], from: number, req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  for (let i = from; i < checks.length; i++) {
    const answered = checks[i](req, reply);
    if (answered === false) continue;
    if (answered === true) return;
    answered.then(
      (wasAnswered) => {
        if (wasAnswered) return;
        try {
          runChecks(checks, i + 1, req, reply, done);
        } catch (err) {
          done(err as Error);
        }
      },
      (err: Error) => done(err),
    );
    return;
  }
  done();
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
 * A RequestCheck: a URL holding an encoded NUL (`%00`) in its path or query is a 400 in
 * GitBook's body. No id, path or query of the API can contain one, and PostgreSQL refuses it
 * in text, so it would otherwise surface as a 500 from the first query.
 */
export function refuseNulInUrl(req: FastifyRequest, reply: FastifyReply): boolean {
  if (!/%00/i.test(req.url)) return false;
  sendGitbookError(reply, 400, 'The URL must not contain the NUL character (%00)');
  return true;
}

/** Fastify's `frameworkErrors`: a malformed URL (bad percent-encoding) is a 400 in GitBook's shape. */
export function frameworkErrors(error: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  // Answered before the request checks, where every other answer gets its request id.
  void reply.header('x-request-id', req.id);
  const badUrl = error.code === 'FST_ERR_BAD_URL';
  const status = badUrl ? 400 : ((error as { statusCode?: number }).statusCode ?? 400);
  sendGitbookError(reply, status, badUrl ? 'Malformed URL: it is not valid percent-encoding' : error.message);
}

/**
 * Fastify's `clientErrorHandler`: what node's HTTP parser refuses before any route or hook sees
 * the request (headers over its size limit, a malformed request line or header, a request that
 * took too long to arrive) is answered in GitBook's error body too, and the connection closed, as
 * Fastify's own handler does with a body of its own shape.
 */
export function clientErrors(err: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `The request's headers are larger than the ${Math.round(maxHeaderSize / 1024)} KB this server accepts`]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'Malformed HTTP request'];
  if (socket.writable) {
    const body = JSON.stringify(gitbookError(status, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
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
