import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { changeRequestAggregate, changeRequestStream, decideChangeRequest } from '@quire/domain';
import { CHANGE_REQUEST_JOB_EVENTS } from '@quire/jobs/change-request.job';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newEventId } from '@quire/platform/ids/ids';
import { ChangeRequestJobs } from '../change-request-jobs';
import { MergeChangeRequestCommand } from './merge-change-request.command';

/**
 * Records the merge request (merge rules are checked here first, for a quick 422), then lets
 * the worker merge and waits for it. A change request already being merged is not merged
 * twice: the caller waits for the running merge; one already merged answers its merge, once the
 * read models show it (its job may still be waiting for them, or may have given up waiting).
 */
@CommandHandler(MergeChangeRequestCommand)
export class MergeChangeRequestHandler implements ICommandHandler<MergeChangeRequestCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly jobs: ChangeRequestJobs,
  ) {}

  async execute({ spaceId, changeRequestId, space, actorId }: MergeChangeRequestCommand) {
    const requestId = newEventId();
    const { state, head } = await this.jobs.unlessHeld((abandoned) =>
      this.executor.append({
        stream: changeRequestStream(changeRequestId),
        aggregate: changeRequestAggregate,
        decide: (s, ctx) => decideChangeRequest({ type: 'RequestChangeRequestMerge', requestId, actorId, space, abandoned }, s, ctx),
        metadata: { actor: actorId },
      }),
    );
    if (state.status === 'merged') {
      if (head) await this.executor.waitFor(head, CHANGE_REQUEST_JOB_EVENTS);
      return { revision: state.revisionMerged!, result: 'merge' as const };
    }
    const pending = state.pendingMerge!;
    const { revision, result } = await this.jobs.run(QUEUES.changeRequestMerge, { spaceId, changeRequestId, requestId: pending.requestId, actorId }, 'merge');
    return { revision, result };
  }
}
