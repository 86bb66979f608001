import { DynamicModule, Global, Module } from '@nestjs/common';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { CommandExecutor } from '@quire/projections/command-executor';
import { Runtime } from './runtime';
import { DB, EVENT_STORE, LOGGER, PROJECTOR, QUIRE_CONFIG, REDIS } from './tokens';

/** Exposes one process's Runtime (connections, projector, executor) to Nest's container. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: Runtime, useValue: runtime },
        { provide: QUIRE_CONFIG, useValue: runtime.config },
        { provide: LOGGER, useValue: runtime.logger },
        { provide: DB, useValue: runtime.db },
        { provide: EVENT_STORE, useValue: runtime.store },
        { provide: PROJECTOR, useValue: runtime.projector },
        { provide: REDIS, useValue: runtime.redis },
        { provide: CommandExecutor, useValue: runtime.executor },
        { provide: IdentityQueries, useValue: new IdentityQueries(runtime.db) },
      ],
      exports: [Runtime, QUIRE_CONFIG, LOGGER, DB, EVENT_STORE, PROJECTOR, REDIS, CommandExecutor, IdentityQueries],
    };
  }
}
