import { StartupError } from '@quire/platform/process/startup-error';
import Redis from 'ioredis';
import { Db } from '@quire/platform/db/db';
import { withTimeout } from '@quire/platform/timeout';
import { openDb } from '@quire/platform/db/open-db';
import { DataDirInUseError } from '@quire/platform/db/pglite-lock';
import { QuireConfig } from '@quire/platform/config/config';
import { createLogger, Logger } from '@quire/platform/logging/logger';
import { EventStore } from '@quire/event-store/event-store.port';
import { Projector } from '@quire/projections/projector';
import { CommandExecutor } from '@quire/projections/command-executor';
import { ReadCacheFollower } from '@quire/projections/read-cache';
import { allProjections } from './all-projections';
import { ContentStore } from '@quire/content/store';
import { JobQueues } from '@quire/jobs/job-queues';
import { claimQueuePrefix, installationQueuePrefix } from '@quire/jobs/installation-scope';
import { adoptLegacyJobs } from '@quire/jobs/legacy-queues';
import { ensureInstallation } from './installation';
import { openEventStore } from './open-event-store';
import { createUpcasters } from './upcasters';

export interface RuntimeOptions {
  /** Run projection runners in this process (all-in-one, worker); otherwise only follow checkpoints. */
  runProjections: boolean;
  /** Connect to Redis (API and worker); the CLI's replay does not need it. */
  redis: boolean;
}

/** Every long-lived connection of a process, opened in order and closed in reverse. */
export class Runtime {
  private constructor(
    readonly config: QuireConfig,
    readonly logger: Logger,
    readonly db: Db,
    readonly store: EventStore,
    readonly projector: Projector,
    readonly executor: CommandExecutor,
    /** Evicts this process's read caches (ReadCache) on events; commands wait for every process's. */
    readonly readCaches: ReadCacheFollower,
    readonly redis: Redis | undefined,
    readonly contentStore: ContentStore,
    /** Producer side of the job queues (absent in processes without Redis, like the CLI). */
    readonly jobs: JobQueues | undefined,
  ) {}

  static async start(configured: QuireConfig, opts: RuntimeOptions, logger = createLogger({ level: configured.logLevel, pretty: configured.logPretty })): Promise<Runtime> {
    let config = configured;
    let redis: Redis | undefined;
    if (opts.redis) redis = await connectRedis(config.redisUrl, logger);
    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 24 }).catch(async (err) => {
      await redis?.quit().catch(() => undefined);
      throw err instanceof DataDirInUseError ? new StartupError(err.message) : err;
    });
    try {
      await db.query('SELECT 1');
    } catch (err: any) {
      await redis?.quit().catch(() => undefined);
      throw new StartupError(`Cannot reach PostgreSQL at ${redactUrl(config.databaseUrl)}: ${err.message}`);
    }
    const store = await openEventStore(db, config.eventStoreUrl, createUpcasters());
    const contentStore = new ContentStore({ dataDir: config.dataDir });
    const projector = new Projector(db, store, allProjections({ contentStore }), logger.child({ component: 'projector' }));
    await projector.prepare();
    await projector.startObserving();
    if (opts.runProjections) await projector.startRunning();
    const readCaches = new ReadCacheFollower(db, store, projector, logger.child({ component: 'read-caches' }));
    await readCaches.observe();
    const executor = new CommandExecutor(store, projector, () => new Date(), config.commandTimeoutMs, readCaches);
    const installationId = await ensureInstallation(executor);
    const configuredPrefix = config.queuePrefix;
    config = { ...config, installationId, queuePrefix: installationQueuePrefix(configuredPrefix, installationId) };
    const jobs = redis
      ? new JobQueues(redis, config.queuePrefix, (err, queue) => logger.warn({ queue, err: err.message }, 'job queue cannot reach Redis'), installationId, config.jobRetryDelayMs)
      : undefined;
    if (redis && jobs && config.queuePrefixConfigured) await adoptConfiguredPrefix(redis, jobs, configuredPrefix, config, logger);
    return new Runtime(config, logger, db, store, projector, executor, readCaches, redis, contentStore, jobs);
  }

  async stop(): Promise<void> {
    await this.jobs?.close();
    await this.readCaches.stop();
    await this.projector.stop();
    await this.store.close();
    await this.db.close();
    await this.redis?.quit().catch(() => undefined);
  }
}

export { StartupError };

/**
 * A configured QUIRE_QUEUE_PREFIX: claims it (start-up warning when another installation uses it
 * too) and moves this installation's jobs still waiting in the queues that lived directly under it
 * before queues were scoped per installation (see adoptLegacyJobs).
 */
async function adoptConfiguredPrefix(redis: Redis, jobs: JobQueues, configuredPrefix: string, config: QuireConfig, logger: Logger): Promise<void> {
  const other = await claimQueuePrefix(redis, configuredPrefix, config.installationId!);
  if (other) {
    logger.warn(
      { configuredQueuePrefix: configuredPrefix, queuePrefix: config.queuePrefix, installation: config.installationId, otherInstallation: other },
      'another installation uses this QUIRE_QUEUE_PREFIX too: each has its own queues under it (scoped by installation id), so neither takes the other\'s jobs; check that both are meant to share this Redis, or give each its own QUIRE_QUEUE_PREFIX (or unset it)',
    );
  }
  // Not fatal: JobRecovery re-enqueues from the events whatever is unfinished (without a git run's credentials).
  const moved = await adoptLegacyJobs(redis, configuredPrefix, jobs, config.queuePrefix, config.installationId!, { ownsLegacyPrefix: !other }).catch((err: Error) => {
    logger.warn({ configuredQueuePrefix: configuredPrefix, err: err.message }, 'could not move this installation\'s jobs from the queues directly under QUIRE_QUEUE_PREFIX');
    return 0;
  });
  if (moved) logger.info({ configuredQueuePrefix: configuredPrefix, queuePrefix: config.queuePrefix, moved }, 'moved this installation\'s waiting jobs from the queues directly under QUIRE_QUEUE_PREFIX to its own');
}

async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: 3000, retryStrategy: (n) => Math.min(n * 200, 2000) });
  redis.on('error', (err) => logger.debug({ err: err.message }, 'redis connection error'));
  try {
    await withTimeout(redis.connect(), 4000);
    await redis.ping();
  } catch (err: any) {
    redis.disconnect();
    throw new StartupError(`Cannot reach Redis at ${redactUrl(url)} (${err.message}). Start Redis or set REDIS_URL.`);
  }
  return redis;
}

export function redactUrl(url: string | undefined): string {
  if (!url) return '(embedded)';
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid url)';
  }
}
