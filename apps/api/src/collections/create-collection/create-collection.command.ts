import { Command } from '@nestjs/cqrs';

export class CreateCollectionCommand extends Command<{ collectionId: string }> {
  constructor(
    readonly input: {
      organizationId: string;
      title?: string;
      /** The enclosing collection, checked by the caller to be readable; organization and depth are checked here. */
      parent?: { collectionId: string; organizationId: string; depth: number };
    },
    readonly actorId: string,
  ) {
    super();
  }
}
