import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideSpace, revisionTrees, spaceAggregate, spaceStream } from '@quire/domain';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { ContentStore } from '@quire/content/store';
import { copyRevision, revisionCreatedFor } from '@quire/content/revision';
import { DuplicateSpaceCommand } from './duplicate-space.command';

/** A new space whose first revision holds a copy of the source's content (same pages, new revision). */
@CommandHandler(DuplicateSpaceCommand)
export class DuplicateSpaceHandler implements ICommandHandler<DuplicateSpaceCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
  ) {}

  async execute({ sourceSpaceId, sourceRevision, actorId }: DuplicateSpaceCommand) {
    const recorded = await this.executor.load(spaceStream(sourceSpaceId), spaceAggregate);
    let source = recorded.state;
    if (sourceRevision) source = { ...source, revision: sourceRevision };
    const spaceId = newId();
    const now = new Date();
    const initialRevision = await copyRevision(this.content, { fromSpaceId: sourceSpaceId, revision: source.revision!, toSpaceId: spaceId, now });
    const sourceTree = revisionTrees(recorded.events).get(source.revision!);
    const { event: revisionCreated } = await revisionCreatedFor({
      store: this.content,
      spaceId,
      revision: initialRevision,
      parents: [],
      kind: 'initial',
      // Same pages: ids carry over from the source revision.
      previous: sourceTree ? { pages: sourceTree.pages, files: sourceTree.files } : undefined,
      createdBy: actorId,
      now,
      newId,
    });
    await this.executor.execute({
      stream: spaceStream(spaceId),
      aggregate: spaceAggregate,
      decide: (state, ctx) => [
        ...decideSpace({ type: 'DuplicateSpace', spaceId, source, initialRevision, creatorId: actorId }, state, ctx),
        revisionCreated,
        { type: 'SpaceRevisionChanged', data: { spaceId, revision: initialRevision } },
      ],
      metadata: { actor: actorId },
    });
    await this.content.setLiveRevision(spaceId, initialRevision);
    return { spaceId };
  }
}
