import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSpace, spaceAggregate, spaceStream } from '@quire/domain';
import { ContentStore } from '@quire/content/store';
import { revisionCreatedFor, writeInitialRevision } from '@quire/content/revision';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { CreateSpaceCommand } from './create-space.command';

@CommandHandler(CreateSpaceCommand)
export class CreateSpaceHandler implements ICommandHandler<CreateSpaceCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
  ) {}

  async execute({ input, actorId }: CreateSpaceCommand) {
    const spaceId = newId();
    const now = new Date();
    // Content first: a commit nobody names is harmless if the append below fails.
    const revision = await writeInitialRevision(this.content, spaceId, { empty: input.empty, pageTitle: input.title, now });
    const { event: revisionCreated } = await revisionCreatedFor({ store: this.content, spaceId, revision, parents: [], kind: 'initial', createdBy: actorId, now, newId });
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceAggregate,
      decide: (state, ctx) => [
        ...decideSpace({ type: 'CreateSpace', spaceId, initialRevision: revision, creatorId: actorId, ...input }, state, ctx),
        revisionCreated,
        { type: 'SpaceRevisionChanged', data: { spaceId, revision } },
      ],
      metadata: { actor: actorId },
    });
    await this.content.setLiveRevision(spaceId, revision);
    return { spaceId };
  }
}
