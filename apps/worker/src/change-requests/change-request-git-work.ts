import {
  changeRequestAggregate,
  changeRequestBase,
  ChangeRequestState,
  changeRequestStream,
  decideChangeRequest,
  effectiveMergeRules,
  mergeRuleViolations,
  organizationAggregate,
  OrganizationMergeRules,
  organizationStream,
  reviewFacts,
  RevisionCreated,
  spaceMergeEvents,
  spaceStream,
  StaleHeadError,
  walkPages,
} from '@quire/domain';
import { EventStore, WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { Position } from '@quire/event-store/position';
import { commitEditedRevision, loadEditableRevision, mergeRevisions, RevisionTree } from '@quire/content/edit';
import { ContentStore } from '@quire/content/store';
import { CommandExecutor } from '@quire/projections/command-executor';
import { EVENT_SCHEMA_VERSIONS } from '@quire/projections/event-schema-versions';
import { newId } from '@quire/platform/ids/ids';
import type { Logger } from '@quire/platform/logging/logger';
import { ChangeRequestJob, ChangeRequestJobResult, commitAuthor, LoadedChangeRequest, LoadedSpace, loadChangeRequest, loadSpace, treeOf } from './change-request-streams';

/** Rounds of "someone else wrote first, compute again" before the job gives up (and BullMQ retries it). */
const MAX_ROUNDS = 20;

/** A line that opens and one that closes a conflict block, as the 3-way merge writes them. */
function hasConflictMarkers(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return /^<{7}(?: |$)/m.test(text) && /^>{7}(?: |$)/m.test(text);
}

const READ_MODEL_EVENTS = ['RevisionCreated', 'SpaceRevisionChanged', 'ChangeRequestMerged', 'ChangeRequestMergeFailed', 'ChangeRequestUpdated'];

/**
 * The git side of merging a change request into its space and of updating a change request
 * from its space. Both compute on a snapshot of the streams, then append with the versions
 * they read; when another writer got there first (a concurrent merge, an import, an edit),
 * they compute again on the new state, so no change is ever merged over or lost.
 */
export class ChangeRequestGitWork {
  constructor(
    private readonly events: EventStore,
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
    private readonly logger: Logger,
  ) {}

  /**
   * Merge: 3-way merge of the change request's head into the space's live revision (a
   * fast-forward when the space has not moved since the change request's base), recorded as a
   * `merge` revision on the space stream with its expected version. With conflicts nothing is
   * applied and the answer names the space's current revision.
   */
  async merge(job: ChangeRequestJob): Promise<ChangeRequestJobResult> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cr = await loadChangeRequest(this.events, job.changeRequestId);
      if (!cr.state.exists || cr.state.spaceId !== job.spaceId) return { ok: false, code: 'not_found', message: 'Change request not found' };
      if (cr.state.status === 'merged') return { ok: true, revision: cr.state.revisionMerged!, result: 'merge' };
      const space = await loadSpace(this.events, job.spaceId);
      const live = space.state.space;
      if (!live.exists || live.deletedAt) return { ok: false, code: 'not_found', message: 'Space not found' };
      const spaceHead = live.revision!;
      const now = new Date();

      // A merge recorded on the space whose completion was cut off (crash, lost job): finish it.
      const prior = space.state.mergedRevisions[job.changeRequestId];
      if (prior && prior.parents.includes(cr.state.revision!)) {
        await this.content.setLiveRevision(job.spaceId, prior.revision);
        const position = await this.completeMerge(job, prior.revision, cr.state.revision!);
        if (position) await this.executor.waitFor(position, READ_MODEL_EVENTS);
        return { ok: true, revision: prior.revision, result: 'merge' };
      }
      if (live.editMode === 'locked') return this.refuseMerge(job, spaceHead, 'not_mergeable', 'The space is locked: nothing can be merged into it');
      if (cr.state.status === 'archived') return this.refuseMerge(job, spaceHead, 'not_mergeable', 'An archived change request cannot be merged; reopen it first', 'conflict');
      // A fast-forward would publish the markers an update left as they are.
      const marked = await this.pagesWithConflictMarkers(job.spaceId, cr.state);
      if (marked.length > 0) {
        const message = `The change request still has conflict markers in ${marked.join(', ')}: resolve them by editing ${marked.length > 1 ? 'those pages' : 'that page'}, then merge`;
        const recorded = await this.recordFailure(job, spaceHead, 'conflicts', message, marked);
        if (recorded) await this.executor.waitFor(recorded, READ_MODEL_EVENTS);
        return { ok: false, code: 'unprocessable', message };
      }
      const base = changeRequestBase(cr.state);
      const mergeRules = effectiveMergeRules(live.mergeRules, await this.organizationMergeRules(live.organizationId!));
      const violations = mergeRuleViolations(mergeRules, {
        outdated: spaceHead !== base,
        subject: cr.state.subject,
        hasDescription: cr.state.description !== undefined && cr.state.description !== null,
        createdBy: cr.state.createdBy!,
        actorId: job.actorId,
        reviews: reviewFacts(cr.state),
      });
      if (violations.length > 0) {
        return this.refuseMerge(job, spaceHead, 'merge_rules', `The merge rules of this space block the merge: ${violations.join('; ')}`);
      }

      const head = this.tree(cr.state.revision!, cr, space);
      const title = `Merge change request #${cr.state.number}${cr.state.subject ? `: ${cr.state.subject}` : ''}`;
      let revision: RevisionCreated;
      if (spaceHead === base) {
        revision = await this.fastForward(job, head, spaceHead, title, now);
      } else {
        const [baseRev, ours, theirs] = await Promise.all([
          loadEditableRevision(this.content, job.spaceId, this.tree(base, cr, space)),
          loadEditableRevision(this.content, job.spaceId, this.tree(spaceHead, cr, space)),
          loadEditableRevision(this.content, job.spaceId, head),
        ]);
        const merged = await mergeRevisions({ store: this.content, base: baseRev, ours, theirs, labels: { ours: 'space', theirs: 'change request' } });
        if (merged.conflicts.length > 0) {
          const paths = merged.conflicts.map((c) => c.path);
          const recorded = await this.recordFailure(job, spaceHead, 'conflicts', `Both the space and the change request changed: ${paths.join(', ')}`, paths);
          if (recorded) await this.executor.waitFor(recorded, READ_MODEL_EVENTS);
          return { ok: true, revision: spaceHead, result: 'conflicts', conflicts: paths };
        }
        revision = await commitEditedRevision({
          store: this.content,
          revision: merged.revision,
          parents: [spaceHead, head.revision],
          kind: 'merge',
          message: title,
          author: commitAuthor(job.actorId),
          mergedFrom: job.changeRequestId,
          createdBy: job.actorId,
          now,
          newId,
        });
      }
      try {
        await this.events.append(
          spaceStream(job.spaceId),
          spaceMergeEvents(revision).map((e) => ({ type: e.type, schemaVersion: EVENT_SCHEMA_VERSIONS[e.type] ?? 1, data: e.data, metadata: { actor: job.actorId } })),
          space.version,
        );
      } catch (err) {
        // The space moved while we merged: merge again against its new revision.
        if (err instanceof WrongExpectedVersionError) continue;
        throw err;
      }
      await this.content.setLiveRevision(job.spaceId, revision.data.revision);
      const position = await this.completeMerge(job, revision.data.revision, head.revision);
      if (position) await this.executor.waitFor(position, READ_MODEL_EVENTS);
      this.logger.info({ spaceId: job.spaceId, changeRequestId: job.changeRequestId, revision: revision.data.revision, fastForward: spaceHead === base }, 'change request merged');
      return { ok: true, revision: revision.data.revision, result: 'merge' };
    }
    throw new Error(`The space kept changing while merging change request ${job.changeRequestId}; retrying`);
  }

  /**
   * Update: 3-way merge of the space's live revision into the change request, as a new
   * change-request revision of kind `update` whose base is that space revision. Where both
   * changed the same lines, the pages carry conflict markers and the result is `conflicts`.
   */
  async update(job: ChangeRequestJob): Promise<ChangeRequestJobResult> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const cr = await loadChangeRequest(this.events, job.changeRequestId);
      if (!cr.state.exists || cr.state.spaceId !== job.spaceId) return { ok: false, code: 'not_found', message: 'Change request not found' };
      if (cr.state.status === 'merged') return { ok: false, code: 'conflict', message: 'A merged change request cannot be updated' };
      const space = await loadSpace(this.events, job.spaceId);
      const spaceHead = space.state.space.revision!;
      const crHead = cr.state.revision!;
      const base = changeRequestBase(cr.state);
      const now = new Date();

      let revision: RevisionCreated | undefined;
      let conflicts: string[] = [];
      let conflictPageIds: string[] = [];
      if (spaceHead !== base) {
        const spaceTree = this.tree(spaceHead, cr, space);
        const parents = [crHead, spaceHead];
        const message = `Update change request #${cr.state.number} from the space`;
        if (crHead === base) {
          // Nothing of its own yet: the change request takes the space's content as it is.
          revision = await this.copyTree(job, spaceTree, parents, 'update', message, now);
        } else {
          const [baseRev, ours, theirs] = await Promise.all([
            loadEditableRevision(this.content, job.spaceId, this.tree(base, cr, space)),
            loadEditableRevision(this.content, job.spaceId, this.tree(crHead, cr, space)),
            loadEditableRevision(this.content, job.spaceId, spaceTree),
          ]);
          const merged = await mergeRevisions({ store: this.content, base: baseRev, ours, theirs, labels: { ours: 'change request', theirs: 'space' } });
          conflicts = merged.conflicts.map((c) => c.path);
          conflictPageIds = merged.conflicts.flatMap((c) => (c.pageId ? [c.pageId] : []));
          revision = await commitEditedRevision({
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
        }
      }
      let position: Position | undefined;
      try {
        ({ position } = await this.executor.append({
          stream: changeRequestStream(job.changeRequestId),
          aggregate: changeRequestAggregate,
          decide: (state, ctx) =>
            decideChangeRequest(
              { type: 'CompleteChangeRequestUpdate', requestId: job.requestId, revision, onHead: crHead, revisionMergedAncestor: spaceHead, conflicts, conflictPageIds },
              state,
              ctx,
            ),
          metadata: { actor: job.actorId },
        }));
      } catch (err) {
        // An edit landed on the change request meanwhile: update its new head instead.
        if (err instanceof StaleHeadError) continue;
        if ((err as any)?.code === 'conflict') return { ok: false, code: 'conflict', message: (err as Error).message };
        throw err;
      }
      if (position) await this.executor.waitFor(position, READ_MODEL_EVENTS);
      return { ok: true, revision: revision?.data.revision ?? crHead, result: conflicts.length > 0 ? 'conflicts' : 'update', ...(conflicts.length ? { conflicts } : {}) };
    }
    throw new Error(`The change request kept changing while updating ${job.changeRequestId}; retrying`);
  }

  /**
   * The pages and files the last update left conflicting that still hold conflict markers in
   * the change request's head (found by page id, then by path), by their current path.
   */
  private async pagesWithConflictMarkers(spaceId: string, state: ChangeRequestState): Promise<string[]> {
    const recorded = state.updateConflicts;
    const head = state.head;
    // An update that left conflicts recorded its own revision, so the head has a tree.
    if (!recorded || !head) return [];
    const ids = new Set(recorded.pageIds);
    const paths = new Set(recorded.paths);
    const candidates = new Map<string, string>();
    for (const { page } of walkPages(head.pages)) {
      if (page.blob && (ids.has(page.id) || paths.has(page.path))) candidates.set(page.path || page.title, page.blob);
    }
    for (const file of head.files) if (paths.has(file.file)) candidates.set(file.file, file.blob);
    const marked = await Promise.all(
      [...candidates].map(async ([path, blob]) => (hasConflictMarkers(await this.content.readBlob(spaceId, blob)) ? path : undefined)),
    );
    return marked.filter((p): p is string => p !== undefined);
  }

  private tree(revision: string, cr: LoadedChangeRequest, space: LoadedSpace): RevisionTree {
    const tree = treeOf(revision, cr.trees, space.trees);
    if (!tree) throw new Error(`No recorded tree for revision ${revision} of space ${cr.state.spaceId}`);
    return tree;
  }

  /** The change request's head becomes the space's content as it is: a merge commit over its tree. */
  private fastForward(job: ChangeRequestJob, head: RevisionTree, spaceHead: string, message: string, now: Date): Promise<RevisionCreated> {
    const parents = spaceHead === head.revision ? [spaceHead] : [spaceHead, head.revision];
    return this.copyTree(job, head, parents, 'merge', message, now);
  }

  /** A new commit with another revision's files (by blob) and its page tree as is. */
  private async copyTree(job: ChangeRequestJob, tree: RevisionTree, parents: string[], kind: 'merge' | 'update', message: string, now: Date): Promise<RevisionCreated> {
    const files = await this.content.readRevisionFiles(job.spaceId, tree.revision);
    const commit = await this.content.writeRevision({
      spaceId: job.spaceId,
      parents,
      files: Object.fromEntries(files.map((f) => [f.path, { oid: f.oid, mode: f.mode as any }])),
      message,
      author: commitAuthor(job.actorId),
      timestamp: now,
    });
    const data: RevisionCreated['data'] = {
      spaceId: job.spaceId,
      revision: commit,
      parents,
      kind,
      pages: tree.pages,
      files: tree.files,
      createdBy: job.actorId,
      createdAt: now.toISOString(),
    };
    if (kind === 'merge') data.mergedFrom = job.changeRequestId;
    else data.changeRequestId = job.changeRequestId;
    return { type: 'RevisionCreated', data };
  }

  private async completeMerge(job: ChangeRequestJob, revisionMerged: string, head: string): Promise<Position | undefined> {
    const { position } = await this.executor.append({
      stream: changeRequestStream(job.changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (state, ctx) => decideChangeRequest({ type: 'CompleteChangeRequestMerge', requestId: job.requestId, revisionMerged, revision: head, mergedBy: job.actorId }, state, ctx),
      metadata: { actor: job.actorId },
    });
    return position;
  }

  private async recordFailure(job: ChangeRequestJob, spaceRevision: string, reason: 'conflicts' | 'merge_rules' | 'not_mergeable', message: string, conflicts: string[] = []) {
    const { position } = await this.executor.append({
      stream: changeRequestStream(job.changeRequestId),
      aggregate: changeRequestAggregate,
      decide: (state, ctx) => decideChangeRequest({ type: 'FailChangeRequestMerge', requestId: job.requestId, reason, message, spaceRevision, conflicts }, state, ctx),
      metadata: { actor: job.actorId },
    });
    return position;
  }

  /** The merge rules a space with `inherit` follows, from its organization's stream. */
  private async organizationMergeRules(organizationId: string): Promise<OrganizationMergeRules> {
    let state = organizationAggregate.initialState();
    for (const e of await this.events.readStream(organizationStream(organizationId))) state = organizationAggregate.evolve(state, { type: e.type, data: e.data } as any);
    return state.mergeRules;
  }

  private async refuseMerge(
    job: ChangeRequestJob,
    spaceRevision: string,
    reason: 'merge_rules' | 'not_mergeable',
    message: string,
    code: 'unprocessable' | 'conflict' = 'unprocessable',
  ): Promise<ChangeRequestJobResult> {
    const position = await this.recordFailure(job, spaceRevision, reason, message);
    if (position) await this.executor.waitFor(position, READ_MODEL_EVENTS);
    return { ok: false, code, message };
  }
}
