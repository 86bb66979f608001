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
import { GitImportError, importGitRepository, scrubSecrets } from '@quire/content/import';
import { importedRevisionFiles, revisionCreatedFor } from '@quire/content/revision';
import { ContentStore } from '@quire/content/store';
import { gitImportSecretKey, GitImportJob, parseGitImportSecret } from '@quire/jobs/git-import.job';
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

/** Where a run is, so that a failure can say what failed; and the secrets its messages must not hold. */
interface RunContext {
  phase: 'prepare' | 'fetch' | 'write' | 'record';
  secrets: string[];
}

/** At most this many warnings are stored with an import (the event and the read models). */
export const MAX_STORED_WARNINGS = 100;

/**
 * Imports a repository into a space: fetch (cached per repository), read its git-sync layout,
 * write a revision, and record it — live unless standalone. One import per space at a time;
 * an import triggered before the last one applied is skipped; failures are recorded with a
 * reason a user can act on, and only transient ones are retried.
 */
@Injectable()
export class GitImportProcessor implements OnModuleInit, OnModuleDestroy {
  private workers?: JobWorkers;
  /** How long the per-space lock lives without renewal; it is renewed every third of it
   * while the job runs. */
  lockTtlMs = 15 * 60_000;

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
    const holder = String(job.id);
    const locked = (await this.redis.set(lockKey, holder, 'PX', this.lockTtlMs, 'NX')) || (await this.renewLock(lockKey, holder));
    if (!locked) {
      await job.moveToDelayed(Date.now() + 500, token);
      throw new DelayedError();
    }
    const log = this.logger.child({ spaceId, importId, jobId: job.id });
    // An import of a large repository may outlast any fixed lifetime: the lock is kept alive
    // while the job runs, and still expires if this worker dies.
    const renewal = setInterval(() => {
      this.renewLock(lockKey, holder).then(
        (kept) => kept || log.warn('git import lost its space lock'),
        (err: Error) => log.warn({ err: err.message }, 'could not renew the git import lock'),
      );
    }, Math.max(1, Math.floor(this.lockTtlMs / 3)));
    const ctx: RunContext = { phase: 'prepare', secrets: [] };
    try {
      return await this.run(job, log, ctx);
    } catch (err) {
      throw await this.settleFailure(job, err, log, ctx);
    } finally {
      clearInterval(renewal);
      await this.redis.eval(RELEASE_IF_HELD, 1, lockKey, holder).catch(() => undefined);
    }
  }

  /** Extends the lock if this job still holds it. */
  private async renewLock(lockKey: string, holder: string): Promise<boolean> {
    return (await this.redis.eval(RENEW_IF_HELD, 1, lockKey, holder, String(this.lockTtlMs))) === 1;
  }

  /**
   * Any error out of a run: retried when it may pass (network trouble, a busy database) and
   * attempts remain; otherwise recorded at once as GitImportFailed with a reason, the
   * credentials dropped, and the job failed for good.
   */
  private async settleFailure(job: Job<GitImportJob>, err: unknown, log: Logger, ctx: RunContext): Promise<unknown> {
    if (err instanceof UnrecoverableError || err instanceof DelayedError) return err;
    const { spaceId, importId } = job.data;
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const error = err instanceof Error ? err : new Error(String(err));
    const scrub = (text: string) => scrubSecrets(text, ctx.secrets);
    if (isTransient(err) && !lastAttempt) {
      log.warn({ err: scrub(error.message), phase: ctx.phase, attempt: job.attemptsMade + 1 }, 'git import failed; will retry');
      return err;
    }
    const { code, message } = failureReason(err, ctx.phase, scrub);
    log.error({ err: scrub(error.message), code, phase: ctx.phase, attempt: job.attemptsMade + 1 }, 'git import failed');
    await this.redis.del(gitImportSecretKey(this.config.queuePrefix, importId)).catch(() => undefined);
    const view = await this.load(spaceId);
    if (view.git.imports[importId] && !isSettled(view.git.imports[importId].status)) {
      await this.appendWithRetry(spaceId, [{ type: 'GitImportFailed', data: { spaceId, importId, code, message, at: new Date().toISOString() } }]);
    }
    return new UnrecoverableError(`${code}: ${message}`);
  }

  private async run(job: Job<GitImportJob>, log: Logger, ctx: RunContext): Promise<unknown> {
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
    const stored = request.hasCredentials ? await this.redis.get(secretKey) : null;
    if (request.hasCredentials && !stored) return this.fail(view, importId, 'auth_failed', 'The credentials of this import have expired; trigger the import again');
    const secret = stored ? parseGitImportSecret(stored) : {};
    ctx.secrets = [secret.auth?.password, ...(secret.query ?? []).map(([, value]) => value)].filter((v): v is string => !!v);
    const started = Date.now();
    ctx.phase = 'fetch';
    const result = await importGitRepository({
      url: request.url,
      ref: request.ref,
      auth: secret.auth,
      secretQuery: secret.query,
      cacheDir: join(this.config.dataDir, 'git-cache'),
      repoCacheId: request.repoCacheID,
      projectDirectory: request.repoProjectDirectory,
    });
    const fetchedMs = Date.now() - started;
    ctx.phase = 'write';
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
      ctx.phase = 'write';
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
        const warnings = capWarnings(result.warnings);
        const done = { type: 'GitImportCompleted', data: { spaceId, importId, revision: parent, commit: { oid: git.oid, message: git.message }, standalone, warnings, at: now() } };
        ctx.phase = 'record';
        try {
          const position = await this.append(spaceId, view.version, [done]);
          await this.redis.del(secretKey);
          await this.executor.waitFor(position, [done.type]);
          log.info({ revision: parent, fetchedMs, totalMs: Date.now() - started, warnings: result.warnings.length }, 'git import completed: content unchanged, no new revision');
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
      // What the user's repository gave (result.warnings) is what the import reports. The
      // revision's own layout, read back from the files Quire wrote (a SUMMARY.md it may have
      // generated), can only repeat those with its own line numbers, or name entries of a file
      // the repository does not have; anything else there is Quire's fault, for the operator.
      if (log.isLevelEnabled('debug')) {
        const reported = new Set(result.warnings);
        const ownLayout = warnings.filter((w) => !reported.has(w));
        if (ownLayout.length) log.debug({ warnings: ownLayout.slice(0, 20) }, 'git import: warnings from reading back the written layout (not reported)');
      }
      const events: NewEvent[] = [
        event,
        ...(standalone ? [] : [{ type: 'SpaceRevisionChanged', data: { spaceId, revision } }]),
        { type: 'GitImportCompleted', data: { spaceId, importId, revision, commit: { oid: git.oid, message: git.message }, standalone, warnings: capWarnings(result.warnings), at: now() } },
      ];
      ctx.phase = 'record';
      try {
        const appendStarted = Date.now();
        const position = await this.append(spaceId, view.version, events);
        await this.redis.del(secretKey);
        if (!standalone) await this.content.setLiveRevision(spaceId, revision);
        const appendedMs = Date.now() - appendStarted;
        await this.executor.waitFor(position, events.map((e) => e.type));
        const projectedMs = Date.now() - appendStarted - appendedMs;
        log.info(
          { revision, pages: countPages(event.data.pages), fetchedMs, writtenMs, appendedMs, projectedMs, totalMs: Date.now() - started, warnings: result.warnings.length },
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
    await this.redis.del(gitImportSecretKey(this.config.queuePrefix, importId));
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

/** Atomic check-and-act on the per-space lock: only its holder renews or releases it. */
const RENEW_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** The first MAX_STORED_WARNINGS warnings and one that counts the rest: a messy repository
 * can produce thousands, and each is stored in the event and the read model. */
export function capWarnings(warnings: string[]): string[] {
  if (warnings.length <= MAX_STORED_WARNINGS) return warnings;
  const more = warnings.length - MAX_STORED_WARNINGS;
  return [...warnings.slice(0, MAX_STORED_WARNINGS), `... and ${more} more warning${more === 1 ? '' : 's'}`];
}

/** Error codes of trouble that may pass: the network, a busy system, a lost race. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ECOMPROMISED', 'wrong_expected_version',
]);

/** Whether an error may pass on a retry. Anything not known to be transient (a bug, a missing
 * object, a bad repository) would fail the same way five times over. */
export function isTransient(err: unknown): boolean {
  if (err instanceof GitImportError) return err.transient;
  if (err instanceof WrongExpectedVersionError) return true;
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  if (e.code === 'NotFoundError') return false;
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  // PostgreSQL: connection exceptions, transaction rollbacks, insufficient resources, shutdowns.
  if (typeof e.code === 'string' && /^(08|40|53|57P)/.test(e.code) && e.code.length === 5) return true;
  return typeof e.message === 'string' && /Connection (is closed|terminated)|Stream isn't writeable/i.test(e.message);
}

const PHASE_FAILED: Record<RunContext['phase'], string> = {
  prepare: 'Starting the import failed',
  fetch: 'Fetching and reading the repository failed',
  write: 'Writing the imported content to the space failed',
  record: 'Recording the imported revision failed',
};

function failureReason(err: unknown, phase: RunContext['phase'], scrub: (text: string) => string): { code: string; message: string } {
  if (err instanceof GitImportError) return { code: err.code, message: scrub(err.message) };
  const detail = scrub(err instanceof Error ? err.message : String(err)).slice(0, 300);
  const retried = isTransient(err) ? ' (after retries)' : '';
  return { code: 'internal', message: `${PHASE_FAILED[phase]}${retried}: ${detail}. Trigger the import again; if it fails the same way, see the worker logs` };
}

function countPages(pages: RevisionCreated['data']['pages']): number {
  return pages.reduce((n, p) => n + 1 + countPages(p.children), 0);
}
