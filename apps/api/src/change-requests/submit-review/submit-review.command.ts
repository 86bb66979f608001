import { Command } from '@nestjs/cqrs';
import { ChangeRequestReviewStatus, CommentActor } from '@quire/domain';

/**
 * GitBook's submitChangeRequestReview: a review of the change request's current head, with an
 * optional comment (a document already checked) posted in the change request's comments.
 */
export class SubmitReviewCommand extends Command<{ reviewId: string }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly status: ChangeRequestReviewStatus,
    readonly comment: unknown | undefined,
    readonly actor: CommentActor,
  ) {
    super();
  }
}
