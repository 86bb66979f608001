import { Command } from '@nestjs/cqrs';
import { CommentActor, CommentCommand } from '@quire/domain';

/**
 * Everything done to an existing comment: update, delete, and post, update or delete a reply.
 * They share one handler because they differ only in the domain command (decideComment tells
 * them apart and holds their rules); `changed` says whether any event was recorded.
 */
export class ChangeCommentCommand extends Command<{ changed: boolean }> {
  constructor(
    readonly commentId: string,
    readonly change: Exclude<CommentCommand, { type: 'PostComment' }>,
    readonly actor: CommentActor,
  ) {
    super();
  }
}
