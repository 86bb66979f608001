import { DynamicModule, Module } from '@nestjs/common';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import { BullBoardModule } from '@bull-board/nestjs';
import { Runtime } from '@quire/infrastructure/runtime';
import { BULL_BOARD_ROUTE, BullBoardGate } from './bull-board';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { OperatorAuth } from './operator-auth';
import { QueueAvailabilityInterceptor, RedisAvailability } from './queue-availability';

/**
 * The operator's view: Bull Board under /admin/queues, Prometheus metrics on /metrics (both for
 * the instance administrator) and 503 for queue-backed commands while Redis is down. Lost jobs
 * are re-enqueued from the events by the worker (apps/worker/src/job-recovery/).
 */
@Module({})
export class OperatorsModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    const queues = runtime.jobs?.all() ?? [];
    return {
      module: OperatorsModule,
      imports: [
        // The cast: @bull-board/fastify pins its own copy of @bull-board/api (9.10.1 beside 9.10.2),
        // whose types differ only by identity; `npm dedupe` would remove it.
        BullBoardModule.forRoot({ route: BULL_BOARD_ROUTE, adapter: BullBoardFastifyAdapter as any, boardOptions: { uiConfig: { boardTitle: 'Quire jobs' } } }),
        BullBoardModule.forFeature(...queues.map((queue) => ({ name: queue.name, queue, adapter: BullMQAdapter }))),
      ],
      controllers: [MetricsController],
      providers: [
        OperatorAuth,
        BullBoardGate,
        MetricsService,
        RedisAvailability,
        QueueAvailabilityInterceptor,
      ],
      exports: [RedisAvailability, QueueAvailabilityInterceptor],
    };
  }
}
