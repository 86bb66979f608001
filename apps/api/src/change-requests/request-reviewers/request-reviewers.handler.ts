import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ChangeRequestJobs } from '../change-request-jobs';
import { RequestReviewersCommand } from './request-reviewers.command';

@CommandHandler(RequestReviewersCommand)
export class RequestReviewersHandler implements ICommandHandler<RequestReviewersCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly jobs: ChangeRequestJobs,
  ) {}

  async execute({ changeRequestId, users, details, actorId }: RequestReviewersCommand): Promise<void> {
    await this.jobs.unlessHeld((abandoned) =>
      this.executor.execute({
        stream: changeRequestStream(changeRequestId),
        aggregate: changeRequestAggregate,
        decide: (state, ctx) => {
          const edits = decideChangeRequest({ type: 'EditChangeRequest', ...details, actorId, abandoned }, state, ctx);
          const requested = decideChangeRequest({ type: 'RequestChangeRequestReviewers', users, actorId }, state, ctx);
          return [...edits, ...requested];
        },
        metadata: { actor: actorId },
      }),
    );
  }
}
