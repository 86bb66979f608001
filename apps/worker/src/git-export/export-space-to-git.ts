import { Inject, Injectable } from '@nestjs/common';
import { decideGitExport, GitExportCommand, gitExportAggregate, planExport, RevisionCreated, RevisionPageNode, SpaceGitExports, spaceStream } from '@quire/domain';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { exportToGitRepository, pageRenames } from '@quire/content/export';
import { ContentStore } from '@quire/content/store';
import { secretValues } from '@quire/jobs/git-run-secret';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import type { Logger } from '@quire/platform/logging/logger';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { gitRemoteOptions } from '../git-runs/git-remote-options';
import { GitRunSecrets } from '../git-runs/git-run-secrets';
import type { GitExportPhase } from './git-export-failure';

/** Who commits every export (the author is the user who made the change). */
export const QUIRE_COMMITTER = { name: 'Quire', email: 'quire@localhost' };
/** Authors Quire writes for its users' revisions (see commitAuthor in @quire/content/edit). */
const QUIRE_USER_EMAIL = /^(.+)@users\.quire\.invalid$/;

/** Where a run is, and the secrets its failure messages must not hold. */
export interface ExportRun {
  spaceId: string;
  exportId: string;
  phase: GitExportPhase;
  secrets: string[];
}

/**
 * The worker side of an export: start it (or skip it as older), push the space's live
 * revision, record how it went. Every event comes from decideGitExport through the executor;
 * what happens between (reading the space, the push) is the async preparation.
 */
@Injectable()
export class ExportSpaceToGit {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
    private readonly identities: IdentityQueries,
    private readonly secrets: GitRunSecrets,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async run(run: ExportRun, log: Logger): Promise<{ status: string; commit?: string }> {
    const { spaceId, exportId } = run;
    const begun = Date.now();
    let state = await this.decide(spaceId, { type: 'StartGitExport', exportId });
    const startedMs = Date.now() - begun;
    const export_ = state.exports[exportId];
    if (export_.status !== 'running') return this.settled(run, export_.status);
    const request = export_.request;

    const secret = await this.secrets.read(QUEUES.gitExport, exportId, request.hasCredentials);
    if (!secret) return this.fail(run, 'auth_failed', 'The credentials of this export have expired; trigger the export again');
    run.secrets = secretValues(secret);

    const revision = state.space.revision!;
    const [files, commit] = await Promise.all([this.content.readRevisionFiles(spaceId, revision), this.content.readRevision(spaceId, revision)]);
    const author = await this.authorOf(commit.author, export_.requestedBy);
    run.phase = 'push';
    const started = Date.now();
    const readMs = started - begun - startedMs;
    const result = await exportToGitRepository({
      ...gitRemoteOptions(request, secret, this.config),
      spaceGitdir: this.content.repositoryPath(spaceId),
      files,
      plan: async (remoteCommit) => {
        const plan = planExport(state, request, remoteCommit);
        const base = plan.kind === 'on-top' ? plan.base : undefined;
        if (!base) return { plan };
        const layout = (plan.kind === 'on-top' && plan.layout) || base;
        return { plan, baseFiles: await this.content.readRevisionFiles(spaceId, base), renames: await this.pageRenames(spaceId, layout, revision) };
      },
      commitMessage: request.commitMessage,
      author,
      committer: QUIRE_COMMITTER,
      timestamp: new Date(),
    });
    run.phase = 'record';
    const recorded = Date.now();
    if (result.outcome === 'refused') return this.fail(run, result.plan.code, result.plan.message);
    state = await this.decide(spaceId, {
      type: 'CompleteGitExport',
      exportId,
      revision,
      commit: { oid: result.commit, message: result.outcome === 'pushed' ? request.commitMessage : commit.message },
      pushed: result.outcome === 'pushed',
    });
    await this.secrets.delete(QUEUES.gitExport, exportId);
    const pushedMs = recorded - started;
    log.info(
      { revision, commit: result.commit, outcome: result.outcome, objectsSent: result.objectsSent, startedMs, readMs, pushedMs, recordedMs: Date.now() - recorded, totalMs: Date.now() - begun },
      'git export completed',
    );
    return { status: state.exports[exportId].status, commit: result.commit };
  }

  /** Records the failure (once) and forgets the credentials. */
  async fail(run: ExportRun, code: string, message: string): Promise<{ status: string }> {
    await this.secrets.delete(QUEUES.gitExport, run.exportId).catch(() => undefined);
    await this.decide(run.spaceId, { type: 'FailGitExport', exportId: run.exportId, code: code as 'internal', message });
    return { status: 'failed' };
  }

  private async settled(run: ExportRun, status: string): Promise<{ status: string }> {
    await this.secrets.delete(QUEUES.gitExport, run.exportId).catch(() => undefined);
    return { status };
  }

  /** Decides and appends. The HTTP request was answered long ago: nobody reads their writes
   * here, so the job does not wait for the read models (they follow within a moment). */
  private async decide(spaceId: string, command: GitExportCommand): Promise<SpaceGitExports> {
    const { state } = await this.executor.append({ stream: spaceStream(spaceId), aggregate: gitExportAggregate, decide: (s, ctx) => decideGitExport(command, s, ctx) });
    return state;
  }

  /**
   * The user who made the change: the live revision's author, with the name and email of the
   * Quire user it names; an imported revision keeps its git author; Quire's own first revision
   * is the requester's.
   */
  private async authorOf(author: { name: string; email: string }, requestedBy: string): Promise<{ name: string; email: string }> {
    const userId = QUIRE_USER_EMAIL.exec(author.email)?.[1] ?? (author.email === QUIRE_COMMITTER.email ? requestedBy : undefined);
    if (!userId) return author;
    const user = await this.identities.user(userId);
    return user ? { name: user.display_name, email: user.email } : author;
  }

  /** Pages Quire's editor moved since `base` (see pageRenames), from the revisions' events. */
  private async pageRenames(spaceId: string, base: string, revision: string): Promise<Map<string, string>> {
    if (base === revision) return new Map();
    const trees = new Map<string, RevisionPageNode[]>();
    for (const e of await this.events.readStream(spaceStream(spaceId))) {
      const d = e.data as RevisionCreated['data'];
      if (e.type === 'RevisionCreated' && (d.revision === base || d.revision === revision)) trees.set(d.revision, d.pages);
    }
    return pageRenames(trees.get(base) ?? [], trees.get(revision) ?? []);
  }
}
