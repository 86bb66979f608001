import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newEventId } from '@quire/platform/ids/ids';
import { ChangeRequestJobs } from '../change-request-jobs';
import { UpdateChangeRequestCommand } from './update-change-request.command';

/** Records the update request, lets the worker merge the space into the change request, waits for it. */
@CommandHandler(UpdateChangeRequestCommand)
export class UpdateChangeRequestHandler implements ICommandHandler<UpdateChangeRequestCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly jobs: ChangeRequestJobs,
  ) {}

  async execute({ spaceId, changeRequestId, actorId }: UpdateChangeRequestCommand) {
    const requestId = newEventId();
    const { state } = await this.jobs.unlessHeld((abandoned) =>
      this.executor.append({
        stream: changeRequestStream(changeRequestId),
        aggregate: changeRequestAggregate,
        decide: (s, ctx) => decideChangeRequest({ type: 'RequestChangeRequestUpdate', requestId, actorId, abandoned }, s, ctx),
        metadata: { actor: actorId },
      }),
    );
    const pending = state.pendingUpdate!;
    const { revision, result } = await this.jobs.run(QUEUES.changeRequestUpdate, { spaceId, changeRequestId, requestId: pending.requestId, actorId }, 'update');
    return { revision, result };
  }
}
