import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { effectiveMergeRules } from '@quire/domain';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { Caller, CurrentCaller } from '../../http/auth';
import { ChangeRequestAccess } from '../change-request-access.service';
import { MergeChangeRequestCommand } from './merge-change-request.command';
import { QueueBacked } from '../../operators/queue-availability';

/**
 * GitBook's mergeChangeRequest. The handler records the request and waits for the worker's
 * merge (apps/worker/src/change-requests/merge-change-request/), which records the merge or
 * its refusal through change-request.decide.ts; the change-requests and spaces read models
 * answer what follows.
 */
@Controller('v1/spaces/:spaceId/change-requests')
export class MergeChangeRequestController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly identity: IdentityQueries,
    private readonly commands: CommandBus,
  ) {}

  @Post(':changeRequestId/merge')
  @QueueBacked()
  @HttpCode(200)
  async merge(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @CurrentCaller() caller: Caller) {
    const { space, row } = await this.access.changeRequest(caller, spaceId, key, 'merge');
    const organization = await this.identity.organization(space.organization_id);
    const mergeRules = effectiveMergeRules(space.merge_rules, organization?.merge_rules ?? { type: 'none' });
    return this.commands.execute(new MergeChangeRequestCommand(spaceId, row.id, { revision: space.revision, mergeRules }, caller.user.id));
  }
}
