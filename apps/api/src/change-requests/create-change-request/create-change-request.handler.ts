import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  changeRequestAggregate,
  changeRequestStream,
  decideChangeRequest,
  decideChangeRequestNumber,
  spaceForChangeRequestsAggregate,
  spaceStream,
} from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CreateChangeRequestCommand } from './create-change-request.command';

/**
 * Two appends: the number, through the space stream with its expected version (unique per
 * space, and the space's live revision read at that moment becomes `revisionInitial`), then
 * the change request's own stream. A crash in between leaves a gap in the numbers, nothing else.
 */
@CommandHandler(CreateChangeRequestCommand)
export class CreateChangeRequestHandler implements ICommandHandler<CreateChangeRequestCommand> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ spaceId, subject, actorId }: CreateChangeRequestCommand) {
    const changeRequestId = newId();
    const { state: space } = await this.executor.append({
      stream: spaceStream(spaceId),
      aggregate: spaceForChangeRequestsAggregate,
      decide: (state, ctx) => decideChangeRequestNumber(state, { changeRequestId }, ctx),
      metadata: { actor: actorId },
      retries: 20,
    });
    await this.executor.execute({
      stream: changeRequestStream(changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (state, ctx) =>
        decideChangeRequest(
          { type: 'CreateChangeRequest', changeRequestId, spaceId, number: space.lastNumber, subject, revisionInitial: space.space.revision!, creatorId: actorId },
          state,
          ctx,
        ),
      metadata: { actor: actorId },
    });
    return { changeRequestId };
  }
}
