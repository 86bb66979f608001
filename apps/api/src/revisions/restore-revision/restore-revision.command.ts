import { Command } from '@nestjs/cqrs';

export interface RestoredRevision {
  /** The space's live revision after the restore: the new rollback revision, or the live one when nothing changed. */
  revision: string;
  result: 'restore' | 'unchanged';
}

/** Makes a past revision of the space, or one page as it was in it, the live content again. */
export class RestoreRevisionCommand extends Command<RestoredRevision> {
  constructor(
    readonly spaceId: string,
    /** A revision of the space (checked by the caller). */
    readonly revisionId: string,
    /** Only this page, as it was in that revision (restored where it was, with the subpages that are gone too). */
    readonly pageId: string | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
