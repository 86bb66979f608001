import { Command } from '@nestjs/cqrs';
import { SpaceChanges } from '@quire/domain';

export class UpdateSpaceCommand extends Command<void> {
  constructor(
    readonly spaceId: string,
    readonly changes: SpaceChanges,
    readonly actorId: string,
  ) {
    super();
  }
}
