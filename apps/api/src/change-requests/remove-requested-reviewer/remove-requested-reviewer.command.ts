import { Command } from '@nestjs/cqrs';

/** GitBook's removeRequestedReviewerFromChangeRequest; answers whether someone was removed. */
export class RemoveRequestedReviewerCommand extends Command<{ removed: boolean }> {
  constructor(
    readonly changeRequestId: string,
    readonly userId: string,
    readonly actorId: string,
  ) {
    super();
  }
}
