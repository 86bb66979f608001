import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { SubmitReviewCommand } from './submit-review.command';

@CommandHandler(SubmitReviewCommand)
export class SubmitReviewHandler implements ICommandHandler<SubmitReviewCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ changeRequestId, status, actorId }: SubmitReviewCommand) {
    const reviewId = newId();
    await this.executor.execute({
      stream: changeRequestStream(changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (state, ctx) => decideChangeRequest({ type: 'SubmitChangeRequestReview', reviewId, status, actorId }, state, ctx),
      metadata: { actor: actorId },
    });
    return { reviewId };
  }
}
