import { startTestQuire, TestQuire } from '../support/quire-app';
import { freePort, PrivateRedis, sleep, until } from './chaos-support';

const LIMIT = 20;

/**
 * Chaos: the rate limiter keeps its windows in Redis (its own private server here). When Redis
 * stops, requests are let through at once rather than refused or held; when it is back, the
 * limit applies again without a restart.
 */
describe('chaos: the rate limiter while Redis is away', () => {
  let redis: PrivateRedis;
  let q: TestQuire;

  beforeAll(async () => {
    redis = new PrivateRedis(await freePort());
    await redis.start();
    q = await startTestQuire({ redisUrl: redis.url, rateLimitPerMinute: LIMIT });
  }, 60_000);
  afterAll(async () => {
    await q?.close();
    await redis?.stop();
  });

  it('fails open and fast during the outage, and limits again once Redis is back', async () => {
    const user = await q.createUser('Limited during outage');
    const get = async () => {
      const at = Date.now();
      const res = await q.http('GET', '/v1/user', { token: user.token });
      return { status: res.status, ms: Date.now() - at };
    };
    for (let i = 0; i < LIMIT; i++) expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);

    await redis.stop();
    // Over the limit twice over, and every request is answered, promptly.
    const during = [];
    for (let i = 0; i < 2 * LIMIT; i++) during.push(await get());
    expect(during.filter((r) => r.status !== 200)).toEqual([]);
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(1000);

    // The new Redis is empty: a fresh window, enforced again once the limiter has reconnected.
    await redis.start();
    await until('the limiter to count again', async () => (await get()).status === 429 || undefined, 30_000, 0);
    await sleep(100);
    expect((await get()).status).toBe(429);
  }, 90_000);
});
