import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { PostCommentCommand } from '../../comments/post-comment/post-comment.command';
import { SubmitReviewCommand } from './submit-review.command';

/**
 * Records the review (with the id of its comment, if any), then posts the comment in its own
 * stream against the revision the review saw. Two streams, so two appends: should the second
 * never happen, the review stands without its comment (its `comment` is left out).
 */
@CommandHandler(SubmitReviewCommand)
export class SubmitReviewHandler implements ICommandHandler<SubmitReviewCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
  ) {}

  async execute({ spaceId, changeRequestId, status, comment, actor }: SubmitReviewCommand) {
    const reviewId = newId();
    const commentId = comment === undefined ? undefined : newId();
    const { state } = await this.executor.execute({
      stream: changeRequestStream(changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (s, ctx) => decideChangeRequest({ type: 'SubmitChangeRequestReview', reviewId, status, commentId, actorId: actor.actorId }, s, ctx),
      metadata: { actor: actor.actorId },
    });
    if (commentId) {
      const place = { spaceId, changeRequestId };
      await this.commands.execute(new PostCommentCommand(place, { revision: state.revision!, reviewId, body: comment }, actor, commentId));
    }
    return { reviewId };
  }
}
