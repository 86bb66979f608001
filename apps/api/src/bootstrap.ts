import 'reflect-metadata';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'crypto';
import type Redis from 'ioredis';
import rateLimit from '@fastify/rate-limit';
import { limitFailedAuthentication } from '@quire/platform/http/auth-failure-limit';
import { addRequestCheck, clientErrors, frameworkErrors, jsonBodyParser, rateLimitOptions, refuseNulInUrl } from '@quire/platform/http/fastify-plumbing';
import { QuireConfig } from '@quire/platform/config/config';
import { PinoNestLogger } from '@quire/platform/logging/logger';
import { Runtime, RuntimeOptions } from '@quire/infrastructure/runtime';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { ApiModule } from './app.module';
import { INSTANCE_ADMIN_ID } from './http/auth';
import { CreateUserCommand } from './identity/create-user/create-user.command';

const BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Request ids (logs and `x-request-id`, when the client sent none): this process's random prefix
 * and a counter, unique across processes and restarts like a UUID, without drawing random bytes
 * for every request.
 */
const REQUEST_ID_PREFIX = randomBytes(8).toString('hex');
let requestCount = 0;
const nextRequestId = () => `${REQUEST_ID_PREFIX}-${(++requestCount).toString(36)}`;

export interface StartedApi {
  app: NestFastifyApplication;
  runtime: Runtime;
  url: string;
  close(): Promise<void>;
}

/** Builds and starts the HTTP API (and, in the all-in-one process, the worker beside it). */
export async function startApi(
  config: QuireConfig,
  opts: RuntimeOptions & { extraModules?: (runtime: Runtime) => Array<Type | DynamicModule> },
): Promise<StartedApi> {
  const runtime = await Runtime.start(config, opts);
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    // The client's address (limits are per address) and scheme, as the operator's proxy says.
    trustProxy: config.trustProxy,
    genReqId: (req: { headers: Record<string, unknown> }) => (req.headers['x-request-id'] as string) || nextRequestId(),
    requestIdHeader: false,
    // Requests that arrive while closing get GitBook's error body from the onRequest hook below.
    return503OnClosing: false,
    // The official client does not encode slashes in page paths; they are one parameter.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    frameworkErrors,
    clientErrorHandler: clientErrors,
  } as any);
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRuntime(runtime, opts.extraModules?.(runtime) ?? []), adapter, {
    logger: new PinoNestLogger(runtime.logger),
    bufferLogs: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Set by close(): from then on every request (readiness included) is refused with 503, so a
  // load balancer stops sending traffic while in-flight requests finish.
  let shuttingDown = false;
  // The access log is at info: below it (LOG_LEVEL=warn) no request pays for building its line.
  const accessLog = runtime.logger.isLevelEnabled('info');
  // Every request passes each hook: one per stage, callback-style, and none that has nothing to do.
  if (accessLog) {
    fastify.addHook('onResponse', (req, reply, done) => {
      runtime.logger.info({ reqId: req.id, method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
      done();
    });
  }
  // The first of the request checks (addRequestCheck: one onRequest hook runs them all, in order).
  // The request id is set here, not in an onSend hook: that is a stage every reply would pass
  // through for this alone, a measurable part of a warm read's CPU. The header set now is sent
  // with whatever answers the request (Fastify keeps reply headers through errors).
  addRequestCheck(fastify, (req, reply) => {
    void reply.header('x-request-id', req.id);
    if (!shuttingDown) return refuseNulInUrl(req, reply);
    void reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '1')
      .send({ error: { code: 503, message: 'This Quire process is shutting down; retry the request (another instance will take it).' } });
    return true;
  });
  // Before init, so Nest keeps this parser instead of registering its own.
  app.useBodyParser('application/json', { bodyLimit: BODY_LIMIT }, jsonBodyParser(fastify));
  const limiterRedis = config.rateLimitPerMinute > 0 || config.authFailureLimitPerMinute > 0 ? await rateLimitRedis(runtime) : undefined;
  if (config.authFailureLimitPerMinute > 0) {
    limitFailedAuthentication(fastify, { maxFailures: config.authFailureLimitPerMinute, redis: limiterRedis?.redis, keyPrefix: `${config.queuePrefix}:auth-failures` });
  }
  if (config.rateLimitPerMinute > 0) {
    await app.register(
      rateLimit as any,
      rateLimitOptions(config.rateLimitPerMinute, limiterRedis && { redis: limiterRedis.redis, nameSpace: `${runtime.config.queuePrefix}:rate-limit:` }),
    );
  }
  app.useGlobalFilters();
  // No enableShutdownHooks(): runProcess owns SIGTERM/SIGINT and calls close() below, once.
  await app.init();
  await ensureInstanceAdmin(app, runtime);
  await app.listen(config.port, config.host);
  const address = fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://127.0.0.1:${port}`;
  runtime.logger.info({ url, mode: opts.runProjections ? 'api+projector' : 'api' }, 'Quire API listening');
  return {
    app,
    runtime,
    url,
    /**
     * The order matters: refuse new requests (readiness 503), stop accepting connections and let
     * in-flight requests finish (their commands still need the projector), then close the job
     * workers (Nest destroy hooks: active jobs finish or go back to the queue), then the
     * projector, the event store and the database. Nest's own close() would wait for the
     * workers before it closes the HTTP server.
     */
    close: async () => {
      shuttingDown = true;
      // A request in flight now keeps its connection open after its answer: server.close() only
      // reaps connections idle when it is called. From now on, a connection is closed at most a
      // keep-alive timeout (1 ms, plus node's 1 s allowance) after its last answer; a request
      // sent on it before that is refused by the check above, with `connection: close`.
      fastify.server.keepAliveTimeout = 1;
      const log = runtime.logger.child({ component: 'shutdown' });
      await app.getHttpAdapter().close();
      log.info('HTTP server closed (in-flight requests finished)');
      limiterRedis?.close();
      await app.close();
      log.info('job workers closed');
      await runtime.stop();
      log.info('projector and database closed');
    },
  };
}

/**
 * The rate limiter's own Redis connection, so the windows are shared by every API replica. It
 * fails fast: no offline queue and a 500 ms command timeout, so while Redis is away a request
 * is let through at once (the limiter's skipOnError) instead of waiting on the shared
 * connection's retries. It reconnects by itself; its errors are logged at most every 30 s.
 */
async function rateLimitRedis(runtime: Runtime): Promise<{ redis: Redis; close(): void } | undefined> {
  if (!runtime.redis) return undefined;
  const log = runtime.logger.child({ component: 'rate-limit' });
  const redis = runtime.redis.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500, lazyConnect: true });
  let lastLogged = 0;
  let closing = false;
  const unreachable = (err?: Error) => {
    if (closing || Date.now() - lastLogged < 30_000) return;
    lastLogged = Date.now();
    log.warn({ err: err?.message ?? 'connection closed' }, 'rate limiter cannot reach Redis: requests are not limited until it is back');
  };
  redis.on('error', unreachable);
  redis.on('close', () => unreachable());
  redis.on('ready', () => {
    if (lastLogged) log.info('rate limiter reconnected to Redis: requests are limited again');
  });
  await redis.connect().catch(() => undefined);
  return {
    redis,
    close: () => {
      closing = true;
      redis.disconnect();
    },
  };
}

/** With QUIRE_ADMIN_TOKEN set, the instance administrator exists as a real user from first start. */
async function ensureInstanceAdmin(app: NestFastifyApplication, runtime: Runtime): Promise<void> {
  if (!runtime.config.adminToken) return;
  const identity = app.get(IdentityQueries);
  if (await identity.user(INSTANCE_ADMIN_ID)) return;
  try {
    await app.get(CommandBus).execute(
      new CreateUserCommand({ userId: INSTANCE_ADMIN_ID, displayName: 'Instance administrator', email: 'admin@quire.invalid', instanceAdmin: true }),
    );
  } catch (err: any) {
    // Another replica created it first.
    if (err?.code !== 'conflict') throw err;
  }
}

