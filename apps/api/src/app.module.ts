import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { InfrastructureModule } from '@quire/infrastructure/infrastructure.module';
import { Runtime } from '@quire/infrastructure/runtime';
import { AuthGuard } from './http/auth';
import { GitBookErrorFilter } from './http/error.filter';
import { HealthController } from './health/health.controller';
import { UsersController } from './identity/users.controller';
import { CreateUserHandler } from './identity/create-user/create-user.handler';
import { CreateAccessTokenHandler } from './identity/create-access-token/create-access-token.handler';
import { OrganizationsController } from './organizations/organizations.controller';
import { CreateOrganizationHandler } from './organizations/create-organization/create-organization.handler';
import { SetMemberRoleHandler } from './organizations/set-member-role/set-member-role.handler';

const commandHandlers = [CreateUserHandler, CreateAccessTokenHandler, CreateOrganizationHandler, SetMemberRoleHandler];

/** The HTTP API on /v1. `extra` lets the all-in-one process mount the worker beside it. */
@Module({})
export class ApiModule {
  static forRuntime(runtime: Runtime, extra: Array<Type | DynamicModule> = []): DynamicModule {
    return {
      module: ApiModule,
      imports: [InfrastructureModule.forRuntime(runtime), CqrsModule.forRoot(), ...extra],
      controllers: [HealthController, UsersController, OrganizationsController],
      providers: [
        ...commandHandlers,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: GitBookErrorFilter },
      ],
    };
  }
}
