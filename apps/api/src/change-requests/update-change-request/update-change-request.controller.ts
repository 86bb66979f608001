import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Caller, CurrentCaller } from '../../http/auth';
import { ChangeRequestAccess } from '../change-request-access.service';
import { UpdateChangeRequestCommand } from './update-change-request.command';
import { QueueBacked } from '../../operators/queue-availability';

/**
 * GitBook's updateChangeRequest. The handler records the request and waits for the worker's
 * update (apps/worker/src/change-requests/update-change-request/), which records the new
 * change-request revision through change-request.decide.ts.
 */
@Controller('v1/spaces/:spaceId/change-requests')
export class UpdateChangeRequestController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly commands: CommandBus,
  ) {}

  @Post(':changeRequestId/update')
  @QueueBacked()
  @HttpCode(200)
  async update(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'edit');
    return this.commands.execute(new UpdateChangeRequestCommand(spaceId, row.id, caller.user.id));
  }
}
