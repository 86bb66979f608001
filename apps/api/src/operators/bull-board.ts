import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRequestCheck } from '@quire/platform/http/fastify-plumbing';
import { OperatorAuth } from './operator-auth';
import { RedisAvailability } from './queue-availability';

/** Where Bull Board (the BullMQ dashboard) is mounted. */
export const BULL_BOARD_ROUTE = '/admin/queues';

/**
 * Bull Board's routes are Fastify's, outside Nest's guards: this hook lets only the instance
 * administrator through (401 with a Basic challenge so browsers prompt, 403 for other users).
 * It matches the route pattern Fastify resolved, so no spelling of the URL (percent-encoding,
 * trailing slash) reaches the dashboard unchecked. While Redis is down, the dashboard's API
 * answers 503 at once.
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
    // A request check whose every other route goes on at once: an async one would cost each
    // request of the API a promise and a microtask turn.
    if (!fastify) return;
    addRequestCheck(fastify, (request, reply) => {
      const route = request.routeOptions?.url;
      if (!route || (route !== BULL_BOARD_ROUTE && !route.startsWith(`${BULL_BOARD_ROUTE}/`))) return false;
      return this.gate(route, request, reply);
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

