import { Command } from '@nestjs/cqrs';

export class DuplicateSpaceCommand extends Command<{ spaceId: string }> {
  constructor(
    readonly sourceSpaceId: string,
    /** The source's live revision as the read model knows it (it follows SpaceRevisionChanged wherever appended). */
    readonly sourceRevision: string | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
