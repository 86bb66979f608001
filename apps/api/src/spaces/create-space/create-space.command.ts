import { Command } from '@nestjs/cqrs';
import { SpaceEditMode, TranslationLanguage } from '@quire/domain';

export class CreateSpaceCommand extends Command<{ spaceId: string }> {
  constructor(
    readonly input: {
      organizationId: string;
      title?: string;
      emoji?: string;
      /** The enclosing collection, checked by the caller to be readable; its organization is checked here. */
      parent?: { collectionId: string; organizationId: string };
      language?: TranslationLanguage;
      editMode?: SpaceEditMode;
      empty?: boolean;
    },
    readonly actorId: string,
  ) {
    super();
  }
}
