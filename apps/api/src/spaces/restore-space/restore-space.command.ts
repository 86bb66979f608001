import { Command } from '@nestjs/cqrs';

export class RestoreSpaceCommand extends Command<void> {
  constructor(
    readonly spaceId: string,
    readonly actorId: string,
  ) {
    super();
  }
}
