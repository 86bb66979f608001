import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  changeRequestAggregate,
  changeRequestBase,
  changeRequestStream,
  conflict,
  decideChangeRequest,
  isPending,
  notFound,
  PendingRequestError,
  RevisionFileNode,
  revisionTrees,
  spaceAggregate,
  spaceStream,
  StaleHeadError,
} from '@quire/domain';
import { commitAuthor, loadEditableRevision, pageText, RevisionTree, writeContentChanges } from '@quire/content/edit';
import { ContentStore } from '@quire/content/store';
import { CommandExecutor } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { ChangeRequestJobs } from '../change-request-jobs';
import { UpdateChangeRequestContentCommand } from './update-change-request-content.command';

/**
 * Applies the batch to the change request's head in memory, writes one commit on top of it,
 * and appends its RevisionCreated with the stream's expected version; when another edit landed
 * first, the batch is applied again to the new head (it is never applied over a stale one).
 */
@CommandHandler(UpdateChangeRequestContentCommand)
export class UpdateChangeRequestContentHandler implements ICommandHandler<UpdateChangeRequestContentCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
    private readonly jobs: ChangeRequestJobs,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  execute(command: UpdateChangeRequestContentCommand) {
    return this.jobs.unlessHeld((abandoned) => this.apply(command, abandoned));
  }

  private async apply({ spaceId, changeRequestId, changes, actorId }: UpdateChangeRequestContentCommand, abandoned: string[]) {
    const { position, prepared } = await this.executor.append({
      stream: changeRequestStream(changeRequestId),
      aggregate: changeRequestAggregate,
      prepare: async (cr) => {
        if (!cr.state.exists || cr.state.spaceId !== spaceId) throw notFound('Change request not found');
        // Checked again by the decision; checked here to spare the work.
        if (cr.state.status === 'merged') throw conflict('A merged change request cannot be edited');
        if (isPending(cr.state.pendingMerge, abandoned)) {
          throw new PendingRequestError('merge', cr.state.pendingMerge, 'The change request is being merged; edit it once the merge has finished');
        }
        const crTrees = revisionTrees(cr.events);
        let spaceTrees: Map<string, RevisionTree> | undefined;
        const tree = async (revision: string): Promise<RevisionTree | undefined> =>
          crTrees.get(revision) ?? (spaceTrees ??= revisionTrees((await this.executor.load(spaceStream(spaceId), spaceAggregate)).events)).get(revision);
        const head = await tree(cr.state.revision!);
        if (!head) throw new Error(`No recorded tree for revision ${cr.state.revision} of change request ${changeRequestId}`);
        const written = await writeContentChanges({
          store: this.content,
          revision: await loadEditableRevision(this.content, spaceId, head),
          changes,
          revertSource: async (revision) => {
            const source = await tree(revision ?? changeRequestBase(cr.state));
            if (!source) return undefined;
            const loaded = await loadEditableRevision(this.content, spaceId, source);
            return { pages: loaded.pages, text: (page) => pageText(this.content, spaceId, page) };
          },
          limits: this.config.pageLimits,
          parents: [head.revision],
          changeRequestId,
          createdBy: actorId,
          author: commitAuthor(actorId),
          now: new Date(),
          newId,
        });
        return { written, onHead: head.revision };
      },
      // An edit landed first: the batch is applied again to the new head, never over a stale one.
      decide: (state, ctx, { written, onHead }) => decideChangeRequest({ type: 'RecordChangeRequestRevision', revision: written.event, onHead, abandoned }, state, ctx),
      isStale: (err) => err instanceof StaleHeadError,
      metadata: { actor: actorId },
    });
    if (position) await this.executor.waitFor(position, ['RevisionCreated']);
    const { written } = prepared!;
    const byId = new Map(written.event.data.files.map((f) => [f.id, f]));
    const insertedFiles = written.insertedFiles.map((f) => byId.get(f.id)).filter((f): f is RevisionFileNode => !!f);
    return { outcomes: written.outcomes, insertedFiles };
  }
}
