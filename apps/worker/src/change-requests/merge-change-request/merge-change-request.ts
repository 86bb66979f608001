import { Inject, Injectable } from '@nestjs/common';
import {
  changeRequestAggregate,
  changeRequestBase,
  changeRequestStream,
  decideChangeRequest,
  effectiveMergeRules,
  MergeRefusal,
  mergeRefusal,
  organizationAggregate,
  OrganizationMergeRules,
  organizationStream,
  RevisionCreated,
  revisionTrees,
  SpaceForChangeRequests,
  spaceForChangeRequestsAggregate,
  spaceMergeEvents,
  spaceStream,
} from '@quire/domain';
import { WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import type { Position } from '@quire/event-store/position';
import { commitAuthor, commitEditedRevision, loadEditableRevision, mergeRevisions } from '@quire/content/edit';
import { ContentStore } from '@quire/content/store';
import { CHANGE_REQUEST_JOB_EVENTS, ChangeRequestJob, ChangeRequestJobResult } from '@quire/jobs/change-request.job';
import { CommandExecutor, LoadedStream } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { copyRevision, treeOf } from '../revision-copy';
import { pagesWithConflictMarkers } from './conflict-markers';

/** Rounds of "someone else wrote first, compute again" before the job gives up (and BullMQ retries it). */
const MAX_ROUNDS = 20;

/** What the merge found on the streams it read, and the revision it wrote if it may merge. */
type PreparedMerge =
  /** `after`: the change request's stream head, when the answer is a merge recorded earlier. */
  | { kind: 'answered'; result: ChangeRequestJobResult; after?: Position }
  | { kind: 'refused'; refusal: MergeRefusal; spaceRevision: string }
  | { kind: 'conflicts'; paths: string[]; spaceRevision: string }
  /** A merge recorded on the space whose completion was cut off (crash, lost job). */
  | { kind: 'recorded'; revision: string; head: string }
  | { kind: 'merge'; revision: RevisionCreated; head: string; fastForward: boolean };

/**
 * Merge: 3-way merge of the change request's head into the space's live revision (a
 * fast-forward when the space has not moved since the change request's base), recorded as a
 * `merge` revision on the space stream with its expected version; when another writer got
 * there first (a concurrent merge, an import), merged again on the new state, so no change is
 * ever merged over or lost. With conflicts, or a precondition unmet (`mergeRefusal`), nothing
 * is applied and the refusal is recorded on the change request.
 */
@Injectable()
export class MergeChangeRequest {
  private readonly logger: Logger;

  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'change-requests' });
  }

  async run(job: ChangeRequestJob): Promise<ChangeRequestJobResult> {
    let merged;
    try {
      merged = await this.executor.append({
        stream: spaceStream(job.spaceId),
        aggregate: spaceForChangeRequestsAggregate,
        prepare: (space) => this.prepare(job, space),
        decide: (_state, _ctx, prepared) => (prepared.kind === 'merge' ? spaceMergeEvents(prepared.revision) : []),
        metadata: { actor: job.actorId },
        retries: MAX_ROUNDS,
      });
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) throw new Error(`The space kept changing while merging change request ${job.changeRequestId}; retrying`);
      throw err;
    }
    const prepared = merged.prepared!;
    switch (prepared.kind) {
      case 'answered':
        // Merged by an earlier attempt whose wait for the read models failed: answer once they show it.
        if (prepared.after) await this.executor.waitFor(prepared.after, CHANGE_REQUEST_JOB_EVENTS);
        return prepared.result;
      case 'refused': {
        const { reason, message, conflicts, code } = prepared.refusal;
        await this.recordFailure(job, { reason, message, conflicts, spaceRevision: prepared.spaceRevision });
        return { ok: false, code, message };
      }
      case 'conflicts': {
        const message = `Both the space and the change request changed: ${prepared.paths.join(', ')}`;
        await this.recordFailure(job, { reason: 'conflicts', message, conflicts: prepared.paths, spaceRevision: prepared.spaceRevision });
        return { ok: true, revision: prepared.spaceRevision, result: 'conflicts', conflicts: prepared.paths };
      }
      case 'recorded':
        await this.complete(job, prepared.revision, prepared.head);
        return { ok: true, revision: prepared.revision, result: 'merge' };
      case 'merge': {
        const revision = prepared.revision.data.revision;
        await this.complete(job, revision, prepared.head);
        this.logger.info({ spaceId: job.spaceId, changeRequestId: job.changeRequestId, revision, fastForward: prepared.fastForward }, 'change request merged');
        return { ok: true, revision, result: 'merge' };
      }
    }
  }

  /** The slow part, on the space as just loaded: read the change request, check, merge the content. */
  private async prepare(job: ChangeRequestJob, space: LoadedStream<SpaceForChangeRequests>): Promise<PreparedMerge> {
    const cr = await this.executor.load(changeRequestStream(job.changeRequestId), changeRequestAggregate);
    if (!cr.state.exists || cr.state.spaceId !== job.spaceId) return answered({ ok: false, code: 'not_found', message: 'Change request not found' });
    if (cr.state.status === 'merged') return answered({ ok: true, revision: cr.state.revisionMerged!, result: 'merge' }, cr.events[cr.events.length - 1].position);
    const live = space.state.space;
    if (!live.exists || live.deletedAt) return answered({ ok: false, code: 'not_found', message: 'Space not found' });
    const spaceHead = live.revision!;
    const crHead = cr.state.revision!;

    const prior = space.state.mergedRevisions[job.changeRequestId];
    if (prior && prior.parents.includes(crHead)) return { kind: 'recorded', revision: prior.revision, head: crHead };
    const mergeRules = effectiveMergeRules(live.mergeRules, await this.organizationMergeRules(live.organizationId!));
    const refusal = mergeRefusal(cr.state, {
      space: { revision: spaceHead, editMode: live.editMode, mergeRules },
      actorId: job.actorId,
      markedPages: await pagesWithConflictMarkers(this.content, job.spaceId, cr.state),
    });
    if (refusal) return { kind: 'refused', refusal, spaceRevision: spaceHead };

    const trees = [revisionTrees(cr.events), revisionTrees(space.events)];
    const tree = (revision: string) => treeOf(revision, job.spaceId, ...trees);
    const head = tree(crHead);
    const base = changeRequestBase(cr.state);
    const message = `Merge change request #${cr.state.number}${cr.state.subject ? `: ${cr.state.subject}` : ''}`;
    const now = new Date();
    if (spaceHead === base) {
      // Fast-forward: the change request's head becomes the space's content as it is.
      const parents = spaceHead === head.revision ? [spaceHead] : [spaceHead, head.revision];
      const revision = await copyRevision(this.content, job, head, { parents, kind: 'merge', message, now });
      return { kind: 'merge', revision, head: crHead, fastForward: true };
    }
    const [baseRev, ours, theirs] = await Promise.all([
      loadEditableRevision(this.content, job.spaceId, tree(base)),
      loadEditableRevision(this.content, job.spaceId, tree(spaceHead)),
      loadEditableRevision(this.content, job.spaceId, head),
    ]);
    const merged = await mergeRevisions({ store: this.content, base: baseRev, ours, theirs, labels: { ours: 'space', theirs: 'change request' } });
    if (merged.conflicts.length > 0) return { kind: 'conflicts', paths: merged.conflicts.map((c) => c.path), spaceRevision: spaceHead };
    const revision = await commitEditedRevision({
      store: this.content,
      revision: merged.revision,
      parents: [spaceHead, head.revision],
      kind: 'merge',
      message,
      author: commitAuthor(job.actorId),
      mergedFrom: job.changeRequestId,
      createdBy: job.actorId,
      now,
      newId,
    });
    return { kind: 'merge', revision, head: crHead, fastForward: false };
  }

  /** The merge rules a space with `inherit` follows, from its organization's stream. */
  private async organizationMergeRules(organizationId: string): Promise<OrganizationMergeRules> {
    return (await this.executor.load(organizationStream(organizationId), organizationAggregate)).state.mergeRules;
  }

  /** The merge revision is the space's: the change request is merged. */
  private async complete(job: ChangeRequestJob, revisionMerged: string, head: string): Promise<void> {
    await this.content.setLiveRevision(job.spaceId, revisionMerged);
    await this.onChangeRequest(job, { type: 'CompleteChangeRequestMerge', requestId: job.requestId, revisionMerged, revision: head, mergedBy: job.actorId });
  }

  private recordFailure(job: ChangeRequestJob, failure: { reason: MergeRefusal['reason']; message: string; conflicts: string[]; spaceRevision: string }): Promise<void> {
    return this.onChangeRequest(job, { type: 'FailChangeRequestMerge', requestId: job.requestId, ...failure });
  }

  private async onChangeRequest(job: ChangeRequestJob, command: Parameters<typeof decideChangeRequest>[0]): Promise<void> {
    const { position } = await this.executor.append({
      stream: changeRequestStream(job.changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (state, ctx) => decideChangeRequest(command, state, ctx),
      metadata: { actor: job.actorId },
    });
    if (position) await this.executor.waitFor(position, CHANGE_REQUEST_JOB_EVENTS);
  }
}

function answered(result: ChangeRequestJobResult, after?: Position): PreparedMerge {
  return { kind: 'answered', result, after };
}
