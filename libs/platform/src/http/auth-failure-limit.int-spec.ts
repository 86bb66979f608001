import Fastify, { type FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import { TEST_REDIS_URL, uniquePrefix } from '@quire/test-support/databases';
import { limitFailedAuthentication } from './auth-failure-limit';

/** An API replica in miniature: one route that wants `Bearer good`. */
function replica(redis: Redis, keyPrefix: string, maxFailures = 5): FastifyInstance {
  const app = Fastify();
  limitFailedAuthentication(app, { maxFailures, redis, keyPrefix });
  app.get('/v1/user', async (req, reply) => (req.headers.authorization === 'Bearer good' ? { ok: true } : reply.code(401).send({ error: { code: 401, message: 'no' } })));
  return app;
}

const get = (app: FastifyInstance, authorization?: string) => app.inject({ method: 'GET', url: '/v1/user', headers: authorization ? { authorization } : {} });

describe('limitFailedAuthentication', () => {
  const connections: Redis[] = [];
  const fastFailing = (url: string) => {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500, lazyConnect: true });
    redis.on('error', () => undefined);
    connections.push(redis);
    return redis;
  };
  afterAll(() => connections.forEach((c) => c.disconnect()));

  it('refuses an address after too many failed authentications, on every replica, until the window ends', async () => {
    const prefix = uniquePrefix('auth-failures');
    const redis = fastFailing(TEST_REDIS_URL);
    await redis.connect();
    const [a, b] = [replica(redis, prefix), replica(fastFailing(TEST_REDIS_URL), prefix)];
    await connections[1].connect();
    for (let i = 0; i < 3; i++) expect((await get(a, 'Bearer guess')).statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await get(b, 'Bearer guess')).statusCode).toBe(401);
    // Five failures between the two replicas: the address is refused by both, a good token too.
    for (const app of [a, b]) {
      const refused = await get(app, 'Bearer good');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toEqual({ error: { code: 429, message: expect.stringMatching(/^Too many failed authentications from this address; retry in \d+ s$/) } });
      // A request without credentials is no guess: answered as ever.
      expect((await get(app)).statusCode).toBe(401);
    }
  });

  it('does not count requests that present no credentials, nor successes', async () => {
    const redis = fastFailing(TEST_REDIS_URL);
    await redis.connect();
    const app = replica(redis, uniquePrefix('auth-failures'));
    for (let i = 0; i < 10; i++) expect((await get(app)).statusCode).toBe(401);
    for (let i = 0; i < 10; i++) expect((await get(app, 'Bearer good')).statusCode).toBe(200);
    expect((await get(app, 'Bearer guess')).statusCode).toBe(401);
  });

  it('lets requests through, promptly, while Redis cannot answer', async () => {
    const app = replica(fastFailing('redis://127.0.0.1:1'), uniquePrefix('auth-failures'), 2);
    const started = Date.now();
    for (let i = 0; i < 6; i++) expect((await get(app, 'Bearer guess')).statusCode).toBe(401);
    expect((await get(app, 'Bearer good')).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
