import { Command } from '@nestjs/cqrs';

/** Answers whether something was deleted (205) or the space was already in the trash (204). */
export class DeleteSpaceCommand extends Command<{ deleted: boolean }> {
  constructor(
    readonly spaceId: string,
    readonly actorId: string,
  ) {
    super();
  }
}
