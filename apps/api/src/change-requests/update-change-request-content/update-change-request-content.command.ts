import { Command } from '@nestjs/cqrs';
import { RevisionFileNode } from '@quire/domain';
import type { ContentChange, ContentChangeOutcome } from '@quire/content/edit';

/** GitBook's updateChangeRequestContent: one atomic batch, one new revision. Files come with their bytes. */
export class UpdateChangeRequestContentCommand extends Command<{ outcomes: ContentChangeOutcome[]; insertedFiles: RevisionFileNode[] }> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly changes: ContentChange[],
    readonly actorId: string,
  ) {
    super();
  }
}
