import { Command } from '@nestjs/cqrs';
import { CommentActor, CommentPlace } from '@quire/domain';

/** GitBook's postCommentInSpace / postCommentInChangeRequest (and the comment of a review). */
export class PostCommentCommand extends Command<{ commentId: string }> {
  constructor(
    readonly place: CommentPlace,
    readonly comment: { revision: string; pageId?: string; nodeId?: string; reviewId?: string; body: unknown },
    readonly actor: CommentActor,
    /** Given when the id was decided before (a review records its comment's id first). */
    readonly commentId?: string,
  ) {
    super();
  }
}
