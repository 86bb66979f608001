import { Injectable } from '@nestjs/common';
import {
  changeRequestAggregate,
  changeRequestBase,
  ChangeRequestState,
  changeRequestStream,
  CompleteChangeRequestUpdate,
  decideChangeRequest,
  DomainError,
  RevisionCreated,
  revisionTrees,
  spaceForChangeRequestsAggregate,
  spaceStream,
  StaleHeadError,
} from '@quire/domain';
import { commitAuthor, commitEditedRevision, loadEditableRevision, mergeRevisions } from '@quire/content/edit';
import { ContentStore } from '@quire/content/store';
import { CHANGE_REQUEST_JOB_EVENTS, ChangeRequestJob, ChangeRequestJobResult } from '@quire/jobs/change-request.job';
import { CommandExecutor, LoadedStream } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { copyRevision, treeOf } from '../revision-copy';

/** Rounds of "someone else wrote first, compute again" before the job gives up (and BullMQ retries it). */
const MAX_ROUNDS = 20;

type PreparedUpdate = { kind: 'answered'; result: ChangeRequestJobResult } | { kind: 'update'; command: CompleteChangeRequestUpdate };

/**
 * Update: 3-way merge of the space's live revision into the change request, as a new
 * change-request revision of kind `update` whose base is that space revision. Where both
 * changed the same lines, the pages carry conflict markers and the result is `conflicts`. An
 * edit that lands on the change request meanwhile moves its head: the update is computed again
 * on the new head (StaleHeadError), never recorded over it.
 */
@Injectable()
export class UpdateChangeRequest {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
  ) {}

  async run(job: ChangeRequestJob): Promise<ChangeRequestJobResult> {
    let updated;
    try {
      updated = await this.executor.append({
        stream: changeRequestStream(job.changeRequestId),
        aggregate: changeRequestAggregate,
        prepare: (cr) => this.prepare(job, cr),
        decide: (state, ctx, prepared) => (prepared.kind === 'update' ? decideChangeRequest(prepared.command, state, ctx) : []),
        isStale: (err) => err instanceof StaleHeadError,
        metadata: { actor: job.actorId },
        retries: MAX_ROUNDS,
      });
    } catch (err) {
      if (err instanceof StaleHeadError) throw new Error(`The change request kept changing while updating ${job.changeRequestId}; retrying`);
      if (err instanceof DomainError && err.code === 'conflict') return { ok: false, code: 'conflict', message: err.message };
      throw err;
    }
    const prepared = updated.prepared!;
    if (prepared.kind === 'answered') return prepared.result;
    if (updated.position) await this.executor.waitFor(updated.position, CHANGE_REQUEST_JOB_EVENTS);
    const { revision, onHead, conflicts } = prepared.command;
    return { ok: true, revision: revision?.data.revision ?? onHead, result: conflicts.length > 0 ? 'conflicts' : 'update', ...(conflicts.length ? { conflicts } : {}) };
  }

  /** The slow part, on the change request as just loaded: merge the space's live content into its head. */
  private async prepare(job: ChangeRequestJob, cr: LoadedStream<ChangeRequestState>): Promise<PreparedUpdate> {
    if (!cr.state.exists || cr.state.spaceId !== job.spaceId) return { kind: 'answered', result: { ok: false, code: 'not_found', message: 'Change request not found' } };
    if (cr.state.status === 'merged') return { kind: 'answered', result: { ok: false, code: 'conflict', message: 'A merged change request cannot be updated' } };
    const space = await this.executor.load(spaceStream(job.spaceId), spaceForChangeRequestsAggregate);
    const spaceHead = space.state.space.revision!;
    const crHead = cr.state.revision!;
    const base = changeRequestBase(cr.state);
    const update = { type: 'CompleteChangeRequestUpdate' as const, requestId: job.requestId, onHead: crHead, revisionMergedAncestor: spaceHead };
    if (spaceHead === base) return { kind: 'update', command: { ...update, conflicts: [], conflictPageIds: [] } };

    const trees = [revisionTrees(cr.events), revisionTrees(space.events)];
    const tree = (revision: string) => treeOf(revision, job.spaceId, ...trees);
    const spaceTree = tree(spaceHead);
    const parents = [crHead, spaceHead];
    const message = `Update change request #${cr.state.number} from the space`;
    const now = new Date();
    if (crHead === base) {
      // Nothing of its own yet: the change request takes the space's content as it is.
      const revision = await copyRevision(this.content, job, spaceTree, { parents, kind: 'update', message, now });
      return { kind: 'update', command: { ...update, revision, conflicts: [], conflictPageIds: [] } };
    }
    const [baseRev, ours, theirs] = await Promise.all([
      loadEditableRevision(this.content, job.spaceId, tree(base)),
      loadEditableRevision(this.content, job.spaceId, tree(crHead)),
      loadEditableRevision(this.content, job.spaceId, spaceTree),
    ]);
    const merged = await mergeRevisions({ store: this.content, base: baseRev, ours, theirs, labels: { ours: 'change request', theirs: 'space' } });
    const revision: RevisionCreated = await commitEditedRevision({
      store: this.content,
      revision: merged.revision,
      parents,
      kind: 'update',
      message,
      author: commitAuthor(job.actorId),
      changeRequestId: job.changeRequestId,
      createdBy: job.actorId,
      now,
      newId,
    });
    return {
      kind: 'update',
      command: {
        ...update,
        revision,
        conflicts: merged.conflicts.map((c) => c.path),
        conflictPageIds: merged.conflicts.flatMap((c) => (c.pageId ? [c.pageId] : [])),
      },
    };
  }
}
