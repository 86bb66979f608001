import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import Redis from 'ioredis';
import { join } from 'path';
import {
  gitSyncAggregate,
  GitSyncState,
  isOutOfOrder,
  isSettled,
  RevisionCreated,
  spaceAggregate,
  SpaceState,
  spaceStream,
} from '@quire/domain';
import { EVENT_STORE, EventStore, NewEvent, WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { GitImportError, importGitRepository } from '@quire/content/import';
import { importedRevisionFiles, revisionCreatedFor } from '@quire/content/revision';
import { ContentStore } from '@quire/content/store';
import { gitImportSecretKey, GitImportJob } from '@quire/jobs/git-import.job';
import { JobWorkers } from '@quire/jobs/job-workers';
import { QUEUES } from '@quire/jobs/queues';
import { CommandExecutor } from '@quire/projections/command-executor';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { REDIS } from '@quire/infrastructure/tokens';

interface SpaceView {
  version: number;
  space: SpaceState;
  git: GitSyncState;
  /** Page trees of the space's revisions, to carry page ids over. */
  trees: Map<string, Pick<RevisionCreated['data'], 'pages' | 'files'>>;
}

/**
 * Imports a repository into a space: fetch (cached per repository), read its git-sync layout,
 * write a revision, and record it — live unless standalone. One import per space at a time;
 * an import triggered before the last one applied is skipped; failures are recorded with a
 * reason a user can act on, and only transient ones are retried.
 */
@Injectable()
export class GitImportProcessor implements OnModuleInit, OnModuleDestroy {
  private workers?: JobWorkers;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly executor: CommandExecutor,
    private readonly content: ContentStore,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.workers = new JobWorkers(this.redis, this.config.queuePrefix, this.logger.child({ component: 'git-import' }));
    this.workers.register<GitImportJob, unknown>(QUEUES.gitImport, (job, token) => this.process(job, token), { concurrency: 2 });
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers?.close();
  }

  async process(job: Job<GitImportJob>, token?: string): Promise<unknown> {
    const { spaceId, importId } = job.data;
    const lockKey = `${this.config.queuePrefix}:lock:git-import:${spaceId}`;
    // Two imports of one space never run at once: the second waits its turn. A job whose worker
    // died holding the lock takes it back when BullMQ hands it to another worker (one job id
    // runs in one place at a time), instead of waiting out the 15 minutes.
    const locked =
      (await this.redis.set(lockKey, String(job.id), 'PX', 15 * 60_000, 'NX')) ||
      ((await this.redis.get(lockKey)) === String(job.id) && (await this.redis.pexpire(lockKey, 15 * 60_000)));
    if (!locked) {
      await job.moveToDelayed(Date.now() + 500, token);
      throw new DelayedError();
    }
    const log = this.logger.child({ spaceId, importId, jobId: job.id });
    try {
      return await this.run(job, log);
    } finally {
      if ((await this.redis.get(lockKey)) === String(job.id)) await this.redis.del(lockKey);
    }
  }

  private async run(job: Job<GitImportJob>, log: Logger): Promise<unknown> {
    const { spaceId, importId } = job.data;
    let view = await this.load(spaceId);
    const run = view.git.imports[importId];
    if (!run) throw new UnrecoverableError(`No import ${importId} was requested for space ${spaceId}`);
    if (isSettled(run.status)) return { status: run.status };
    const request = run.request;
    const now = () => new Date().toISOString();

    if (view.space.deletedAt) return this.fail(view, importId, 'space_deleted', 'The space was deleted before the import ran');
    if (isOutOfOrder(view.git, request)) {
      await this.append(spaceId, view.version, [
        { type: 'GitImportSkipped', data: { spaceId, importId, reason: `A newer import (triggered at ${view.git.lastAppliedTimestamp}) was already applied`, at: now() } },
      ]);
      log.info('git import skipped: older than the last one applied');
      return { status: 'skipped' };
    }
    if (run.status === 'queued') {
      await this.append(spaceId, view.version, [{ type: 'GitImportStarted', data: { spaceId, importId, at: now() } }]);
      view = await this.load(spaceId);
    }

    const secretKey = gitImportSecretKey(this.config.queuePrefix, importId);
    const secret = request.hasCredentials ? await this.redis.get(secretKey) : null;
    if (request.hasCredentials && !secret) return this.fail(view, importId, 'auth_failed', 'The credentials of this import have expired; trigger the import again');
    const started = Date.now();
    let result;
    try {
      result = await importGitRepository({
        url: request.url,
        ref: request.ref,
        auth: secret ? JSON.parse(secret) : undefined,
        cacheDir: join(this.config.dataDir, 'git-cache'),
        repoCacheId: request.repoCacheID,
        projectDirectory: request.repoProjectDirectory,
      });
    } catch (err) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (err instanceof GitImportError && (!err.transient || lastAttempt)) {
        await this.redis.del(secretKey);
        return this.fail(view, importId, err.code, err.message);
      }
      if (!(err instanceof GitImportError) && lastAttempt) {
        await this.redis.del(secretKey);
        return this.fail(view, importId, 'internal', 'The import failed unexpectedly; see the worker logs');
      }
      log.warn({ err: (err as Error).message, attempt: job.attemptsMade + 1 }, 'git import failed; will retry');
      throw err;
    }
    const fetchedMs = Date.now() - started;
    const files = importedRevisionFiles(result.layout, result.files);
    const git = {
      oid: result.commit.oid,
      message: result.commit.message,
      ref: request.ref,
      ...(request.repoCommitURL ? { url: `${request.repoCommitURL.replace(/\/+$/, '')}/${result.commit.oid}` } : {}),
    };

    // If the space moves while we record (a merge), record again on top of it.
    for (let attempt = 0; ; attempt++) {
      const parent = view.space.revision;
      const writeStarted = Date.now();
      const revision = await this.content.writeRevision({
        spaceId,
        parents: parent ? [parent] : [],
        files,
        message: result.commit.message || `Import ${request.ref}`,
        author: result.commit.author,
        timestamp: new Date(),
      });
      const standalone = !!request.standalone;
      if (!standalone && parent && (await this.content.readRevision(spaceId, revision)).tree === (await this.content.readRevision(spaceId, parent)).tree) {
        // The repository holds exactly what the space shows: nothing to change, no new revision.
        const done = { type: 'GitImportCompleted', data: { spaceId, importId, revision: parent, commit: { oid: git.oid, message: git.message }, standalone, warnings: result.warnings, at: now() } };
        try {
          const position = await this.append(spaceId, view.version, [done]);
          await this.redis.del(secretKey);
          await this.executor.waitFor(position, [done.type]);
          log.info({ revision: parent, fetchedMs, totalMs: Date.now() - started }, 'git import completed: content unchanged, no new revision');
          return { status: 'completed', revision: parent };
        } catch (err) {
          if (!(err instanceof WrongExpectedVersionError) || attempt >= 5) throw err;
          view = await this.load(spaceId);
          if (isSettled(view.git.imports[importId]?.status)) return { status: view.git.imports[importId].status };
          continue;
        }
      }
      const previous = parent ? view.trees.get(parent) : undefined;
      const { event, warnings } = await revisionCreatedFor({
        store: this.content,
        spaceId,
        revision,
        parents: parent ? [parent] : [],
        kind: 'import',
        previous,
        git,
        createdBy: run.requestedBy,
        now: new Date(),
        newId,
      });
      const writtenMs = Date.now() - writeStarted;
      const allWarnings = [...new Set([...result.warnings, ...warnings])];
      const events: NewEvent[] = [
        event,
        ...(standalone ? [] : [{ type: 'SpaceRevisionChanged', data: { spaceId, revision } }]),
        { type: 'GitImportCompleted', data: { spaceId, importId, revision, commit: { oid: git.oid, message: git.message }, standalone, warnings: allWarnings, at: now() } },
      ];
      try {
        const appendStarted = Date.now();
        const position = await this.append(spaceId, view.version, events);
        await this.redis.del(secretKey);
        const appendedMs = Date.now() - appendStarted;
        await this.executor.waitFor(position, events.map((e) => e.type));
        const projectedMs = Date.now() - appendStarted - appendedMs;
        log.info(
          { revision, pages: countPages(event.data.pages), fetchedMs, writtenMs, appendedMs, projectedMs, totalMs: Date.now() - started, warnings: allWarnings.length },
          'git import completed',
        );
        return { status: 'completed', revision };
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError) || attempt >= 5) throw err;
        view = await this.load(spaceId);
        if (isSettled(view.git.imports[importId]?.status)) return { status: view.git.imports[importId].status };
      }
    }
  }

  private async fail(view: SpaceView, importId: string, code: string, message: string): Promise<never> {
    const spaceId = view.space.spaceId!;
    await this.appendWithRetry(spaceId, [{ type: 'GitImportFailed', data: { spaceId, importId, code, message, at: new Date().toISOString() } }]);
    throw new UnrecoverableError(`${code}: ${message}`);
  }

  private async load(spaceId: string): Promise<SpaceView> {
    const recorded = await this.events.readStream(spaceStream(spaceId));
    let space = spaceAggregate.initialState();
    let git = gitSyncAggregate.initialState();
    const trees = new Map<string, Pick<RevisionCreated['data'], 'pages' | 'files'>>();
    for (const e of recorded) {
      const event = { type: e.type, data: e.data } as any;
      space = spaceAggregate.evolve(space, event);
      git = gitSyncAggregate.evolve(git, event);
      if (e.type === 'RevisionCreated') {
        const d = e.data as RevisionCreated['data'];
        trees.set(d.revision, { pages: d.pages, files: d.files });
      }
    }
    return { version: recorded.length ? recorded[recorded.length - 1].streamVersion : 0, space, git, trees };
  }

  private async append(spaceId: string, expected: number, events: NewEvent[]) {
    const { position } = await this.events.append(spaceStream(spaceId), events, expected === 0 ? 'no_stream' : expected);
    return position;
  }

  private async appendWithRetry(spaceId: string, events: NewEvent[]) {
    for (let attempt = 0; ; attempt++) {
      const view = await this.load(spaceId);
      try {
        return await this.append(spaceId, view.version, events);
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError) || attempt >= 5) throw err;
      }
    }
  }
}

function countPages(pages: RevisionCreated['data']['pages']): number {
  return pages.reduce((n, p) => n + 1 + countPages(p.children), 0);
}
