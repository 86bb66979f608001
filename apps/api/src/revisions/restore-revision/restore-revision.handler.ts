import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideRestoreRevision, findPage, notFound, RevisionCreated, SpaceEvent, spaceAggregate, spaceForChangeRequestsAggregate, spaceStream } from '@quire/domain';
import { loadEditableRevision, pageText, RevisionTree, writeContentChanges } from '@quire/content/edit';
import { revisionCreatedFor } from '@quire/content/revision';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ContentStore } from '@quire/content/store';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { CommandExecutor } from '@quire/projections/command-executor';
import { newId } from '@quire/platform/ids/ids';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { RestoredRevision, RestoreRevisionCommand } from './restore-revision.command';

/**
 * A restore through the normal write path: a new commit on top of the live revision holding the
 * past revision's files (or the live files with one page put back as it was), recorded as a
 * `rollback` RevisionCreated that becomes live. The past revision and everything after it stay
 * as they were.
 */
@CommandHandler(RestoreRevisionCommand)
export class RestoreRevisionHandler implements ICommandHandler<RestoreRevisionCommand> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly store: ContentStore,
    private readonly content: ContentQueries,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async execute({ spaceId, revisionId, pageId, actorId }: RestoreRevisionCommand): Promise<RestoredRevision> {
    const live = await this.liveTree(spaceId);
    // A revision's tree never changes; the read model holds every revision of the space.
    const past = await this.content.revision(spaceId, revisionId);
    if (!past) throw notFound('Revision not found in this space');
    if (pageId !== undefined && !findPage(past.pages, (p) => p.id === pageId)) throw notFound('Page not found in this revision');
    const source: RevisionTree = { revision: revisionId, pages: past.pages, files: past.files };
    const now = new Date();
    const revision = pageId === undefined ? await this.restoreAll(spaceId, live, source, actorId, now) : await this.restorePage(spaceId, live, source, pageId, actorId, now);
    if (!revision) return { revision: live.revision, result: 'unchanged' };

    await this.executor.execute({
      stream: spaceStream(spaceId),
      // The space stream as a whole (its RevisionCreated events included), so the restore is appended to it.
      aggregate: spaceForChangeRequestsAggregate,
      decide: (state) => decideRestoreRevision(state.space, { revision, onLive: live.revision }),
      metadata: { actor: actorId },
    });
    await this.store.setLiveRevision(spaceId, revision.data.revision);
    return { revision: revision.data.revision, result: 'restore' };
  }

  /** The live revision and its tree, from the space's own stream (where every live revision is recorded). */
  private async liveTree(spaceId: string): Promise<RevisionTree> {
    const recorded = await this.events.readStream(spaceStream(spaceId));
    let state = spaceAggregate.initialState();
    const trees = new Map<string, RevisionTree>();
    for (const e of recorded) {
      state = spaceAggregate.evolve(state, { type: e.type, data: e.data } as SpaceEvent);
      if (e.type === 'RevisionCreated') {
        const d = e.data as RevisionCreated['data'];
        trees.set(d.revision, { revision: d.revision, pages: d.pages, files: d.files });
      }
    }
    if (!state.exists || state.deletedAt || !state.revision) throw notFound('Space not found');
    const tree = trees.get(state.revision);
    if (!tree) throw new Error(`No recorded tree for the live revision ${state.revision} of space ${spaceId}`);
    return tree;
  }

  /** The past revision's files exactly (by blob), its pages keeping their ids. Undefined when the live revision already holds them. */
  private async restoreAll(spaceId: string, live: RevisionTree, past: RevisionTree, actorId: string, now: Date): Promise<RevisionCreated | undefined> {
    const [pastCommit, liveCommit] = await Promise.all([this.store.readRevision(spaceId, past.revision), this.store.readRevision(spaceId, live.revision)]);
    if (pastCommit.tree === liveCommit.tree) return undefined;
    const files = await this.store.readRevisionFiles(spaceId, past.revision);
    const commit = await this.store.writeRevision({
      spaceId,
      parents: [live.revision],
      files: Object.fromEntries(files.map((f) => [f.path, { oid: f.oid, mode: f.mode as any }])),
      message: `Restore revision ${past.revision}`,
      author: commitAuthor(actorId),
      timestamp: now,
    });
    const { event } = await revisionCreatedFor({
      store: this.store,
      spaceId,
      revision: commit,
      parents: [live.revision],
      kind: 'rollback',
      previous: { pages: past.pages, files: past.files },
      createdBy: actorId,
      now,
      newId,
    });
    event.data.restoredFrom = { revision: past.revision };
    return event;
  }

  /** GitBook's revert of one page (revert_page with the past revision) applied to the live revision. */
  private async restorePage(spaceId: string, live: RevisionTree, past: RevisionTree, pageId: string, actorId: string, now: Date): Promise<RevisionCreated | undefined> {
    const written = await writeContentChanges({
      store: this.store,
      revision: await loadEditableRevision(this.store, spaceId, live),
      changes: [{ operation: 'revert_page', page: pageId, revision: past.revision }],
      limits: this.config.pageLimits,
      revertSource: async () => {
        const loaded = await loadEditableRevision(this.store, spaceId, past);
        return { pages: loaded.pages, text: (page) => pageText(this.store, spaceId, page) };
      },
      parents: [live.revision],
      kind: 'rollback',
      message: `Restore page ${pageId} as in revision ${past.revision}`,
      createdBy: actorId,
      author: commitAuthor(actorId),
      now,
      newId,
    });
    const [restored, liveCommit] = await Promise.all([this.store.readRevision(spaceId, written.event.data.revision), this.store.readRevision(spaceId, live.revision)]);
    if (restored.tree === liveCommit.tree) return undefined;
    written.event.data.restoredFrom = { revision: past.revision, page: pageId };
    return written.event;
  }
}

/** Commits are authored by the acting user's id, as every other write of Quire's. */
function commitAuthor(actorId: string): { name: string; email: string } {
  return { name: actorId, email: `${actorId}@users.quire.invalid` };
}
