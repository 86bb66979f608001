import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ChangeRequestJobs } from '../change-request-jobs';
import { EditChangeRequestCommand } from './edit-change-request.command';

@CommandHandler(EditChangeRequestCommand)
export class EditChangeRequestHandler implements ICommandHandler<EditChangeRequestCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly jobs: ChangeRequestJobs,
  ) {}

  async execute({ changeRequestId, changes, actorId }: EditChangeRequestCommand): Promise<void> {
    await this.jobs.unlessHeld((abandoned) =>
      this.executor.execute({
        stream: changeRequestStream(changeRequestId),
        aggregate: changeRequestAggregate,
        decide: (state, ctx) => decideChangeRequest({ type: 'EditChangeRequest', ...changes, actorId, abandoned }, state, ctx),
        metadata: { actor: actorId },
      }),
    );
  }
}
