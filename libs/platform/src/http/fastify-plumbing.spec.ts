import Fastify from 'fastify';
import { addRequestCheck } from './fastify-plumbing';

describe('addRequestCheck', () => {
  it('runs every check in one onRequest hook, in the order added, through synchronous and asynchronous steps', async () => {
    const app = Fastify();
    const ran: string[] = [];
    const added = jest.spyOn(app, 'addHook');
    addRequestCheck(app, () => (ran.push('sync'), false));
    addRequestCheck(app, async () => (ran.push('async'), false));
    addRequestCheck(app, () => (ran.push('last'), false));
    app.get('/x', async () => (ran.push('route'), { ok: true }));
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.statusCode).toBe(200);
    expect(ran).toEqual(['sync', 'async', 'last', 'route']);
    expect(added.mock.calls.filter(([name]) => name === 'onRequest')).toHaveLength(1);
  });

  it('stops at a check that answered the request, synchronously or not, and sends a thrown or rejected error to Fastify', async () => {
    const app = Fastify();
    let after = 0;
    addRequestCheck(app, (req, reply) => (req.url === '/sync' ? (void reply.code(400).send({ refused: 'sync' }), true) : false));
    addRequestCheck(app, async (req, reply) => {
      if (req.url === '/async') return (await reply.code(429).send({ refused: 'async' }), true);
      if (req.url === '/reject') throw Object.assign(new Error('rejected'), { statusCode: 503 });
      return false;
    });
    addRequestCheck(app, (req) => {
      after++;
      if (req.url === '/throw') throw Object.assign(new Error('thrown'), { statusCode: 502 });
      return false;
    });
    for (const url of ['/sync', '/async', '/reject', '/throw']) app.get(url, async () => ({ reached: url }));
    expect((await app.inject({ url: '/sync' })).json()).toEqual({ refused: 'sync' });
    expect((await app.inject({ url: '/async' })).statusCode).toBe(429);
    expect((await app.inject({ url: '/reject' })).statusCode).toBe(503);
    expect(after).toBe(0);
    expect((await app.inject({ url: '/throw' })).statusCode).toBe(502);
    expect(after).toBe(1);
  });
});
