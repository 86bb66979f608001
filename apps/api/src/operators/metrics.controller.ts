import { Controller, Get, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { DomainError } from '@quire/domain';
import { Caller, CurrentCaller } from '../http/auth';
import { MetricsService } from './metrics.service';

/** Prometheus text format, for the instance administrator's token (scrape with a bearer token). */
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  async scrape(@CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    if (!caller.instanceAdmin) throw new DomainError('forbidden', 'Metrics are for the instance administrator');
    const body = await this.metrics.metrics();
    await reply.header('content-type', this.metrics.contentType).header('cache-control', 'no-store').send(body);
  }
}
