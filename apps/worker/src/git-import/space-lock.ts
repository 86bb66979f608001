import Redis from 'ioredis';

/** Atomic check-and-act on the lock: only its holder renews or releases it. */
const RENEW_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One git import per space at a time, across workers: a Redis key held by a job id for `ttlMs`.
 * A job whose worker died holding it takes it back when BullMQ hands the job to another worker
 * (one job id runs in one place at a time), instead of waiting out the lifetime.
 */
export class SpaceLock {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  /** Takes the lock, or keeps it when this holder already has it. */
  async acquire(): Promise<boolean> {
    return (await this.redis.set(this.key, this.holder, 'PX', this.ttlMs, 'NX')) === 'OK' || (await this.renew());
  }

  /** Extends the lock if this holder still holds it. */
  async renew(): Promise<boolean> {
    return (await this.redis.eval(RENEW_IF_HELD, 1, this.key, this.holder, String(this.ttlMs))) === 1;
  }

  /**
   * Keeps the lock alive while `work` runs (an import of a large repository may outlast any fixed
   * lifetime; it still expires if this worker dies), then releases it.
   */
  async holdWhile<T>(work: () => Promise<T>, onLost: (err?: Error) => void): Promise<T> {
    const renewal = setInterval(() => {
      this.renew().then(
        (kept) => kept || onLost(),
        (err: Error) => onLost(err),
      );
    }, Math.max(1, Math.floor(this.ttlMs / 3)));
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.redis.eval(RELEASE_IF_HELD, 1, this.key, this.holder).catch(() => undefined);
    }
  }
}
