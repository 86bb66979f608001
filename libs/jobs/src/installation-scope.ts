import Redis from 'ioredis';

/**
 * Job queues belong to one installation (one event store with its read models and repositories).
 * By default their Redis prefix is derived from the installation's id, so installations that
 * share a Redis never see each other's queues; API and worker replicas of one installation read
 * the same id from their shared event store, hence share their queues. An operator may still set
 * the prefix (QUIRE_QUEUE_PREFIX): then jobs carry the installation id, and workers leave the
 * jobs of another installation alone (see JobWorkers).
 */
export function installationQueuePrefix(basePrefix: string, installationId: string): string {
  return `${basePrefix}:${installationId}`;
}

/** Where a prefix records the installation whose queues live under it. */
export function queueOwnerKey(prefix: string): string {
  return `${prefix}:installation`;
}

/** What job data carries so a worker can tell its installation's jobs from another's. */
export interface InstallationScoped {
  installationId?: string;
}

/**
 * Records this installation as the owner of the queues under `prefix`, unless another one already
 * is: returns that other installation's id (the caller warns), or undefined when the queues are ours.
 */
export async function claimQueuePrefix(redis: Redis, prefix: string, installationId: string): Promise<string | undefined> {
  const key = queueOwnerKey(prefix);
  await redis.set(key, installationId, 'NX');
  const owner = await redis.get(key);
  return owner && owner !== installationId ? owner : undefined;
}
