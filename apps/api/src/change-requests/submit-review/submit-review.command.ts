import { Command } from '@nestjs/cqrs';
import { ChangeRequestReviewStatus } from '@quire/domain';

/** GitBook's submitChangeRequestReview: a review of the change request's current head. */
export class SubmitReviewCommand extends Command<{ reviewId: string }> {
  constructor(
    readonly changeRequestId: string,
    readonly status: ChangeRequestReviewStatus,
    readonly actorId: string,
  ) {
    super();
  }
}
