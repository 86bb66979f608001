import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OperatorAuth } from './operator-auth';
import { RedisAvailability } from './queue-availability';

/** Where Bull Board (the BullMQ dashboard) is mounted. */
export const BULL_BOARD_ROUTE = '/admin/queues';

/**
 * Bull Board's routes are Fastify's, outside Nest's guards: this hook lets only the instance
 * administrator through (401 with a Basic challenge so browsers prompt, 403 for other users).
 * It is a hook of each of the dashboard's routes, so every spelling of the URL that Fastify
 * routes to the dashboard (percent-encoding, trailing slash) passes it. While Redis is down, the
 * dashboard's API answers 503 at once.
 */
@Injectable()
export class BullBoardGate implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: OperatorAuth,
    private readonly redis: RedisAvailability,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    // The gate is a hook of the dashboard's own routes, added to each as Bull Board registers it
    // (its plugin loads when the server starts, after this): the requests of the API do not pass
    // it at all. As a check in the hook every request passes, it read every request's route
    // pattern (Fastify builds routeOptions anew on each read).
    const gate = async (request: FastifyRequest, reply: FastifyReply) => {
      if (await this.gate(request.routeOptions.url!, request, reply)) return reply;
    };
    fastify.addHook('onRoute', (route) => {
      if (route.url !== BULL_BOARD_ROUTE && !route.url.startsWith(`${BULL_BOARD_ROUTE}/`)) return;
      const hooks = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      // A HEAD route Fastify derives from a GET one arrives with the GET's hooks already.
      if (!hooks.includes(gate)) route.onRequest = [...hooks, gate];
    });
  }

  /** True when the request was answered (refused, or 503 while Redis is down). */
  private async gate(route: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const access = await this.auth.check(request.headers.authorization);
    if (access === 'admin') {
      // The dashboard's API reads Redis; while Redis is down its calls would hang for a minute.
      if (route.startsWith(`${BULL_BOARD_ROUTE}/api/`) && !(await this.redis.check())) {
        const message = 'The job queue (Redis) is unavailable, so the job dashboard cannot read it now. Retry shortly.';
        await reply.status(503).header('content-type', 'application/json; charset=utf-8').header('retry-after', '5').send({ error: { code: 503, message } });
        return true;
      }
      return false;
    }
    const code = access === 'forbidden' ? 403 : 401;
    if (code === 401) void reply.header('www-authenticate', 'Basic realm="Quire operators", charset="UTF-8"');
    const message = code === 401 ? 'Authentication required: the instance administrator token (Bearer, or as the Basic auth password)' : 'The job dashboard is for the instance administrator';
    await reply.status(code).header('content-type', 'application/json; charset=utf-8').send({ error: { code, message } });
    return true;
  }
}

