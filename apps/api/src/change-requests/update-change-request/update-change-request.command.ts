import { Command } from '@nestjs/cqrs';
import type { ChangeRequestJobAnswer } from '../merge-change-request/merge-change-request.command';

/** GitBook's updateChangeRequest: merge the space's live content into the change request. */
export class UpdateChangeRequestCommand extends Command<ChangeRequestJobAnswer> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly actorId: string,
  ) {
    super();
  }
}
