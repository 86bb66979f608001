import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@quire/platform/config/config';
import { PinoNestLogger } from '@quire/platform/logging/logger';
import { InfrastructureModule } from '@quire/infrastructure/infrastructure.module';
import { Runtime } from '@quire/infrastructure/runtime';
import { Module, DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { runProcess } from '@quire/platform/process/run-process';
import { WorkerModule } from './worker.module';

@Module({})
class WorkerAppModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return { module: WorkerAppModule, imports: [InfrastructureModule.forRuntime(runtime), CqrsModule.forRoot(), WorkerModule] };
  }
}

/** The worker alone (scaled out): job processors and the projection runners. */
void runProcess('worker', async () => {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required to run the worker on its own');
  const runtime = await Runtime.start(config, { runProjections: true, redis: true });
  const app = await NestFactory.createApplicationContext(WorkerAppModule.forRuntime(runtime), { logger: new PinoNestLogger(runtime.logger) });
  await app.init();
  runtime.logger.info('Quire worker running');
  return {
    close: async () => {
      await app.close();
      await runtime.stop();
    },
  };
});
