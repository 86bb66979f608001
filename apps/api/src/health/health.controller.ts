import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import Redis from 'ioredis';
import { Runtime } from '@quire/infrastructure/runtime';
import { REDIS } from '@quire/infrastructure/tokens';
import { withTimeout } from '@quire/platform/timeout';
import { Public } from '../http/auth';

/** Liveness (the process answers) and readiness (PostgreSQL, Redis, projector lag). */
@Controller('health')
export class HealthController {
  constructor(
    private readonly runtime: Runtime,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  @Public()
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const checks: Record<string, { status: 'up' | 'down'; [k: string]: unknown }> = {};
    checks.database = await probe(() => this.runtime.db.query('SELECT 1'));
    checks.redis = this.redis ? await probe(() => this.redis!.ping()) : { status: 'up', note: 'not used by this process' };
    try {
      const lag = await this.runtime.projector.lag();
      checks.projections = { status: lag.failed.length ? 'down' : 'up', eventsBehind: lag.behind, failed: lag.failed };
    } catch (err: any) {
      checks.projections = { status: 'down', error: err.message };
    }
    const ok = Object.values(checks).every((c) => c.status === 'up');
    void reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}

async function probe(fn: () => Promise<unknown>): Promise<{ status: 'up' | 'down'; error?: string }> {
  try {
    await withTimeout(fn(), 2000);
    return { status: 'up' };
  } catch (err: any) {
    return { status: 'down', error: err.message };
  }
}
