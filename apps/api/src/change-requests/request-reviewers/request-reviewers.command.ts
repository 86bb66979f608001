import { Command } from '@nestjs/cqrs';

/**
 * GitBook's requestReviewersForChangeRequest: asks users (already checked: they exist and may
 * review the space) to review, and optionally sets the subject and description in the same append.
 */
export class RequestReviewersCommand extends Command<void> {
  constructor(
    readonly changeRequestId: string,
    readonly users: string[],
    readonly details: { subject?: string; description?: unknown },
    readonly actorId: string,
  ) {
    super();
  }
}
