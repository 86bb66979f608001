import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { RemoveRequestedReviewerCommand } from './remove-requested-reviewer.command';

@CommandHandler(RemoveRequestedReviewerCommand)
export class RemoveRequestedReviewerHandler implements ICommandHandler<RemoveRequestedReviewerCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ changeRequestId, userId, actorId }: RemoveRequestedReviewerCommand) {
    const { events } = await this.executor.execute({
      stream: changeRequestStream(changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (state, ctx) => decideChangeRequest({ type: 'UnrequestChangeRequestReviewer', userId, actorId }, state, ctx),
      metadata: { actor: actorId },
    });
    return { removed: events.length > 0 };
  }
}
