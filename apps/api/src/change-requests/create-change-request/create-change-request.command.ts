import { Command } from '@nestjs/cqrs';

export class CreateChangeRequestCommand extends Command<{ changeRequestId: string }> {
  constructor(
    readonly spaceId: string,
    readonly subject: string | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
