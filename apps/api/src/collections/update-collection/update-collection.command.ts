import { Command } from '@nestjs/cqrs';
import { CollectionChanges } from '@quire/domain';

export class UpdateCollectionCommand extends Command<void> {
  constructor(
    readonly collectionId: string,
    readonly changes: CollectionChanges,
    readonly actorId: string,
  ) {
    super();
  }
}
