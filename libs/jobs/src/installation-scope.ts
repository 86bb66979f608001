import Redis from 'ioredis';

/**
 * Job queues belong to one installation (one event store with its read models and repositories).
 * Their Redis prefix is the configured one (QUIRE_QUEUE_PREFIX, default `quire`) scoped by the
 * installation's id, so installations that share a Redis never see each other's queues, even
 * given the same QUIRE_QUEUE_PREFIX: a worker only ever pulls its own installation's jobs. API and
 * worker replicas of one installation read the same id from their shared event store, hence share
 * their queues (and the keys under the prefix: git-run secrets, locks).
 */
export function installationQueuePrefix(basePrefix: string, installationId: string): string {
  return `${basePrefix}:${installationId}`;
}

/** Where a configured prefix records the first installation that used it. */
export function queueOwnerKey(prefix: string): string {
  return `${prefix}:installation`;
}

/** What job data carries: the installation that enqueued it (see JobWorkers' check, adoptLegacyJobs). */
export interface InstallationScoped {
  installationId?: string;
}

/**
 * Records this installation as the owner of a configured `prefix`, unless another one already is:
 * returns that other installation's id (the caller warns), or undefined when the prefix is ours.
 * The owner is the one whose jobs from before per-installation queues carry no installation id.
 */
export async function claimQueuePrefix(redis: Redis, prefix: string, installationId: string): Promise<string | undefined> {
  const key = queueOwnerKey(prefix);
  await redis.set(key, installationId, 'NX');
  const owner = await redis.get(key);
  return owner && owner !== installationId ? owner : undefined;
}
