import 'reflect-metadata';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'crypto';
import { QuireConfig } from '@quire/platform/config/config';
import { PinoNestLogger } from '@quire/platform/logging/logger';
import { Runtime, RuntimeOptions } from '@quire/infrastructure/runtime';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { ApiModule } from './app.module';
import { INSTANCE_ADMIN_ID } from './http/auth';
import { CreateUserCommand } from './identity/create-user/create-user.command';

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
    bodyLimit: 10 * 1024 * 1024,
    genReqId: (req: { headers: Record<string, unknown> }) => (req.headers['x-request-id'] as string) || randomUUID(),
    requestIdHeader: false,
    // The official client does not encode slashes in page paths; they are one parameter.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
  } as any);
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRuntime(runtime, opts.extraModules?.(runtime) ?? []), adapter, {
    logger: new PinoNestLogger(runtime.logger),
    bufferLogs: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onResponse', (req, reply, done) => {
    runtime.logger.info({ reqId: req.id, method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
  fastify.addHook('onSend', (req, reply, payload, done) => {
    void reply.header('x-request-id', req.id);
    done(null, payload);
  });
  app.useGlobalFilters();
  app.enableShutdownHooks();
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
    close: async () => {
      await app.close();
      await runtime.stop();
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

