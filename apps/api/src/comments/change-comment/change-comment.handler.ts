import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { commentAggregate, commentStream, decideComment } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ChangeCommentCommand } from './change-comment.command';

@CommandHandler(ChangeCommentCommand)
export class ChangeCommentHandler implements ICommandHandler<ChangeCommentCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ commentId, change, actor }: ChangeCommentCommand) {
    const { events } = await this.executor.execute({
      stream: commentStream(commentId),
      aggregate: commentAggregate,
      decide: (state, ctx) => decideComment(change, state, actor, ctx),
      metadata: { actor: actor.actorId },
    });
    return { changed: events.length > 0 };
  }
}
