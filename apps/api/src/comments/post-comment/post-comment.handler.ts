import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { commentAggregate, commentStream, decideComment } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { PostCommentCommand } from './post-comment.command';

@CommandHandler(PostCommentCommand)
export class PostCommentHandler implements ICommandHandler<PostCommentCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ place, comment, actor, commentId = newId() }: PostCommentCommand) {
    await this.executor.execute({
      stream: commentStream(commentId),
      aggregate: commentAggregate,
      decide: (state, ctx) => decideComment({ type: 'PostComment', commentId, place, ...comment }, state, actor, ctx),
      metadata: { actor: actor.actorId },
    });
    return { commentId };
  }
}
