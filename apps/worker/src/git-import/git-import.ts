import { Inject, Injectable } from '@nestjs/common';
import {
  CompleteGitImport,
  decideGitImport,
  DomainError,
  GitImportCommand,
  GitImportStatus,
  RevisionCreated,
  revisionTrees,
  SpaceGitImports,
  spaceGitImportsAggregate,
  spaceStream,
} from '@quire/domain';
import { importGitRepository } from '@quire/content/import';
import { importedRevisionFiles, revisionCreatedFor } from '@quire/content/revision';
import { ContentStore } from '@quire/content/store';
import { CommandExecutor, LoadedStream } from '@quire/projections/command-executor';
import { ProjectionTimeoutError } from '@quire/projections/projector';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import type { Logger } from '@quire/platform/logging/logger';
import { GitImportPhase } from './git-import-failures';
import { secretValues } from '@quire/jobs/git-run-secret';
import { QUEUES } from '@quire/jobs/queues';
import { gitRemoteOptions } from '../git-runs/git-remote-options';
import { GitRunSecrets } from '../git-runs/git-run-secrets';

/** Where a run is, so that a failure can say what failed; and the secrets its messages must not hold. */
export interface GitImportRun {
  phase: GitImportPhase;
  secrets: string[];
}

/** How an import ended (the job's return value). */
export interface GitImportOutcome {
  status: GitImportStatus;
  revision?: string;
}

/** A failure recorded as GitImportFailed: the job fails for good (no retry). */
export class GitImportFailedError extends Error {
  constructor(readonly code: string, message: string) {
    super(`${code}: ${message}`);
  }
}

/** A job for an import the events do not know: nothing to run or record. */
export class UnknownGitImportError extends Error {}

/** The read models a page read is answered from: the new revision is live once they have it. */
const LIVE_READ_MODELS = ['spaces', 'content'];

/** Lost races on the space stream before the job gives up (and BullMQ retries it). */
const RECORD_RETRIES = 5;

/**
 * Imports a repository into a space: start (or skip as older than the last import applied),
 * fetch (cached per repository) and read its git-sync layout, write a revision on top of the
 * space's live one, and record it, live unless standalone. Every event comes from
 * `decideGitImport` through the executor; the fetch is done once, the revision is written again
 * on top of the space's new revision when the space moves meanwhile (a merge).
 */
@Injectable()
export class GitImport {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
    private readonly secrets: GitRunSecrets,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  async run(spaceId: string, importId: string, log: Logger, run: GitImportRun): Promise<GitImportOutcome> {
    const decided = await this.decide(spaceId, async () => ({ type: 'StartGitImport', importId }));
    const current = decided.state.git.imports[importId];
    if (decided.events.length === 0 && current.status !== 'running') return { status: current.status };
    const outcome = decided.events[0]?.type;
    if (outcome === 'GitImportFailed') {
      await this.secrets.delete(QUEUES.gitImport, importId);
      const { code, message } = decided.events[0].data as { code: string; message: string };
      throw new GitImportFailedError(code, message);
    }
    if (outcome === 'GitImportSkipped') {
      log.info('git import skipped: older than the last one applied');
      return { status: 'skipped' };
    }
    const request = current.request;
    const requestedBy = current.requestedBy;

    const secret = await this.secrets.read(QUEUES.gitImport, importId, request.hasCredentials);
    if (!secret) return this.fail(spaceId, importId, 'auth_failed', 'The credentials of this import have expired; trigger the import again');
    run.secrets = secretValues(secret);
    const started = Date.now();
    run.phase = 'fetch';
    const result = await importGitRepository({ ...gitRemoteOptions(request, secret, this.config), maxBytes: this.config.importMaxBytes });
    const fetchedMs = Date.now() - started;
    run.phase = 'write';
    const files = importedRevisionFiles(result.layout, result.files);
    const git = {
      oid: result.commit.oid,
      message: result.commit.message,
      ref: request.ref,
      ...(request.repoCommitURL ? { url: `${request.repoCommitURL.replace(/\/+$/, '')}/${result.commit.oid}` } : {}),
    };
    const standalone = !!request.standalone;
    let writtenMs = 0;

    // The revision goes on top of the space's live one: written again if the space moves while we record.
    const recorded = await this.decide(
      spaceId,
      async ({ state, events }): Promise<GitImportCommand> => {
        const parent = state.space.revision;
        const writeStarted = Date.now();
        run.phase = 'write';
        const revision = await this.content.writeRevision({
          spaceId,
          parents: parent ? [parent] : [],
          files,
          message: result.commit.message || `Import ${request.ref}`,
          author: result.commit.author,
          timestamp: new Date(),
        });
        const complete = { type: 'CompleteGitImport' as const, importId, commit: { oid: git.oid, message: git.message }, warnings: result.warnings };
        if (!standalone && parent && (await this.sameTree(spaceId, revision, parent))) {
          // The repository holds exactly what the space shows: nothing to change, no new revision.
          run.phase = 'record';
          return { ...complete, revision: parent };
        }
        const { event, warnings } = await revisionCreatedFor({
          store: this.content,
          spaceId,
          revision,
          parents: parent ? [parent] : [],
          kind: 'import',
          previous: parent ? revisionTrees(events).get(parent) : undefined,
          git,
          createdBy: requestedBy,
          now: new Date(),
          newId,
        });
        writtenMs = Date.now() - writeStarted;
        logOwnLayoutWarnings(log, result.warnings, warnings);
        run.phase = 'record';
        return { ...complete, revision, created: event };
      },
    );
    if (recorded.events.length === 0) return { status: recorded.state.git.imports[importId].status };
    const { revision, created } = recorded.prepared as CompleteGitImport;
    const appendStarted = Date.now();
    await this.secrets.delete(QUEUES.gitImport, importId);
    if (created && !standalone) await this.content.setLiveRevision(spaceId, revision);
    const appendedMs = Date.now() - appendStarted;
    // For the log: when the revision was live (served by the read models pages are read from),
    // apart from when every read model, search included, had it.
    const live = this.executor.waitForReadModels(recorded.position!, LIVE_READ_MODELS).then(
      () => Date.now() - appendStarted - appendedMs,
      () => undefined,
    );
    try {
      await this.executor.waitFor(recorded.position!, recorded.events.map((e) => e.type));
    } catch (err) {
      // The import is recorded: read models that take longer than the wait to index a large
      // one (10,000 pages on a busy host) catch up on their own; failing the job for it would
      // report an import that succeeded as failed.
      if (!(err instanceof ProjectionTimeoutError)) throw err;
      log.warn({ revision, lagging: err.lagging, fetchedMs, writtenMs, totalMs: Date.now() - started }, 'git import completed; read models still catching up');
      return { status: 'completed', revision };
    }
    if (!created) {
      log.info({ revision, fetchedMs, totalMs: Date.now() - started, warnings: result.warnings.length }, 'git import completed: content unchanged, no new revision');
    } else {
      const projectedMs = Date.now() - appendStarted - appendedMs;
      const liveMs = await live;
      const pages = countPages(created.data.pages);
      const { fetch: fetchMs, read: readMs } = result.timings;
      log.info(
        { revision, pages, fetchedMs, fetchMs, readMs, writtenMs, appendedMs, liveMs, projectedMs, totalMs: Date.now() - started, warnings: result.warnings.length },
        'git import completed',
      );
    }
    return { status: 'completed', revision };
  }

  /**
   * Records a failure (once: an import already settled keeps its outcome), drops the
   * credentials, and fails the job for good.
   */
  async fail(spaceId: string, importId: string, code: string, message: string): Promise<never> {
    await this.secrets.delete(QUEUES.gitImport, importId).catch(() => undefined);
    await this.decide(spaceId, async () => ({ type: 'FailGitImport', importId, code, message }));
    throw new GitImportFailedError(code, message);
  }

  /** Decides on the space stream the command `prepare` makes of it (again, on a newer stream, after a lost race). */
  private async decide(spaceId: string, prepare: (loaded: LoadedStream<SpaceGitImports>) => Promise<GitImportCommand>) {
    try {
      return await this.executor.append({
        stream: spaceStream(spaceId),
        aggregate: spaceGitImportsAggregate,
        prepare,
        decide: (state, ctx, command) => decideGitImport(command, state, ctx),
        retries: RECORD_RETRIES,
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'not_found') throw new UnknownGitImportError(err.message);
      throw err;
    }
  }

  private async sameTree(spaceId: string, a: string, b: string): Promise<boolean> {
    return (await this.content.readRevision(spaceId, a)).tree === (await this.content.readRevision(spaceId, b)).tree;
  }
}

function countPages(pages: RevisionCreated['data']['pages']): number {
  return pages.reduce((n, p) => n + 1 + countPages(p.children), 0);
}

/**
 * What the user's repository gave is what the import reports. The revision's own layout, read
 * back from the files Quire wrote (a SUMMARY.md it may have generated), can only repeat those
 * with its own line numbers, or name entries of a file the repository does not have; anything
 * else there is Quire's fault, for the operator.
 */
function logOwnLayoutWarnings(log: Logger, reported: string[], readBack: string[]): void {
  if (!log.isLevelEnabled('debug')) return;
  const known = new Set(reported);
  const ownLayout = readBack.filter((w) => !known.has(w));
  if (ownLayout.length) log.debug({ warnings: ownLayout.slice(0, 20) }, 'git import: warnings from reading back the written layout (not reported)');
}
