import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { Job } from 'bullmq';
import { connect } from 'net';
import { startApi } from '../../apps/api/src/bootstrap';
import { startTestQuire, TestQuire } from '../support/quire-app';

const LIMIT = 40;

describe('HTTP plumbing: empty JSON bodies, malformed URLs, rate limit (e2e)', () => {
  let q: TestQuire;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    q = await startTestQuire({ rateLimitPerMinute: LIMIT });
    owner = await q.createUser('Plumbing Owner');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Plumbing Org' } })).body.id;
  });
  afterAll(async () => {
    await q?.close();
  });

  it('takes `Content-Type: application/json` with an empty body as no body (merge, update)', async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Empty bodies' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'nothing' });
    const update = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/update`, { token: owner.token, rawBody: '' });
    expect(update.status).toBe(200);
    const merge = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: owner.token, rawBody: '' });
    expect(merge.status).toBe(200);
    expect(merge.body.result).toBe('merge');
    // A body that is there and broken is still refused.
    const broken = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: owner.token, rawBody: '{' });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe(400);
  });

  it('answers every request with its request id: the one the client sent, else one of its own', async () => {
    const ok = await q.http('GET', '/v1/user', { token: owner.token, headers: { 'x-request-id': 'client-chosen-id' } });
    expect([ok.status, ok.headers.get('x-request-id')]).toEqual([200, 'client-chosen-id']);
    const answers = [
      await q.http('GET', '/v1/user', { token: owner.token }),
      // (Never without a token: this suite's rate limit counts those by IP, for the test below.)
      await q.http('GET', '/v1/user', { token: 'not-a-known-token' }),
      await q.http('GET', '/v1/no-such-route', { token: owner.token }),
      await q.http('GET', '/v1/spaces/%E0%A4%A', { token: owner.token }),
      await q.http('GET', '/v1/users/%00', { token: owner.token }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 400, 400]);
    const ids = answers.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers a malformed URL with GitBook's 400 error body", async () => {
    const res = await q.http('GET', '/v1/spaces/%E0%A4%A', { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining('Malformed URL') } });
  });

  it("answers what node's HTTP parser refuses (headers too large, a malformed request) with GitBook's error body", async () => {
    const { port } = new URL(q.url);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        socket.on('data', (d) => (answer += d));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    const tooLarge = await raw(`GET /v1/user HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    expect(tooLarge).toMatch(/\r\ncontent-type: application\/json/i);
    expect(bodyOf(tooLarge)).toEqual({ error: { code: 431, message: expect.stringContaining('headers are larger than') } });
    const malformed = await raw('GET /v1/user HTTP/1.1\r\nHost x\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(malformed)).toEqual({ error: { code: 400, message: 'Malformed HTTP request' } });
    // The server goes on answering.
    expect((await q.http('GET', '/v1/user', { token: owner.token })).status).toBe(200);
  });

  it("answers text PostgreSQL cannot store (NUL, half a surrogate pair) with GitBook's 400, in bodies and in URLs", async () => {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Unstorable text' } as any);
    const bad = [
      ['{"title":"a\\u0000b"}', /NUL character/],
      ['{"title":"ok","nested":{"k\\u0000":"v"}}', /NUL character/],
      ['{"title":"\\ud800"}', /surrogate/],
      ['{"title":"x\\udfffy"}', /surrogate/],
    ] as const;
    for (const [rawBody, message] of bad) {
      for (const [method, path] of [['POST', `/v1/orgs/${orgId}/collections`], ['PATCH', `/v1/spaces/${space.id}`]] as const) {
        const res = await q.http(method, path, { token: owner.token, rawBody });
        expect([rawBody, method, res.status, res.body]).toEqual([rawBody, method, 400, { error: { code: 400, message: expect.stringMatching(message) } }]);
      }
    }
    // A whole pair, written as escapes, is text like any other.
    const emoji = await q.http('PATCH', `/v1/spaces/${space.id}`, { token: owner.token, rawBody: '{"title":"Docs \\ud83d\\ude00"}' });
    expect([emoji.status, emoji.body.title]).toEqual([200, 'Docs \u{1F600}']);
    for (const path of [`/v1/spaces/${space.id}/content/path/a%00b`, '/v1/users/%00', `/v1/orgs/${orgId}/search?query=x%00`]) {
      const res = await q.http('GET', path, { token: owner.token });
      expect([path, res.status, res.body]).toEqual([path, 400, { error: { code: 400, message: expect.stringContaining('%00') } }]);
    }
  });

  it('QUIRE_RATE_LIMIT: 429 with Retry-After past the limit, per token (or per IP without one); health and metrics are exempt', async () => {
    const limited = await q.createUser('Busy client');
    const other = await q.createUser('Quiet client');
    for (let i = 0; i < LIMIT; i++) expect((await q.http('GET', '/v1/user', { token: limited.token })).status).toBe(200);
    const over = await q.http('GET', '/v1/user', { token: limited.token });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: { code: 429, message: expect.stringContaining(`${LIMIT} requests per minute`) } });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token has its own window.
    expect((await q.http('GET', '/v1/user', { token: other.token })).status).toBe(200);
    // Without a token, the client's IP is counted.
    for (let i = 0; i < LIMIT; i++) expect((await q.http('GET', '/v1/user')).status).toBe(401);
    expect((await q.http('GET', '/v1/user')).status).toBe(429);
    for (let i = 0; i < LIMIT + 5; i++) {
      expect((await q.http('GET', '/health/live')).status).toBe(200);
      expect((await q.http('GET', '/metrics', { token: q.config.adminToken })).status).toBe(200);
    }
  });

  it('QUIRE_RATE_LIMIT holds across API replicas: the window is kept in Redis', async () => {
    // A second API process on the same database and Redis prefix, as a second replica would be.
    const replica = await startApi({ ...q.config, port: 0 }, { runProjections: false, redis: true });
    try {
      const client = await q.createUser('Replicated client');
      const get = (url: string) => fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${client.token}` } });
      for (let i = 0; i < LIMIT; i++) expect((await get(i % 2 ? replica.url : q.url)).status).toBe(200);
      // Each replica saw half the limit; together they saw all of it.
      expect((await get(replica.url)).status).toBe(429);
      expect((await get(q.url)).status).toBe(429);
    } finally {
      await replica.close();
    }
  });
});

describe('a job that vanished from Redis while a merge waited for it (e2e)', () => {
  let q: TestQuire;

  beforeAll(async () => {
    // No worker: the merge's job stays waiting until the test removes it.
    q = await startTestQuire({}, { worker: false });
  });
  afterAll(async () => {
    await q?.close();
  });

  it('answers 503 with a message saying to retry', async () => {
    const owner = await q.createUser('Vanish Owner');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Vanish Org' } })).body.id;
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Vanishing' } as any);
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'lost' });
    const merging = q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: owner.token });
    const queue = q.started.runtime.jobs!.queue(QUEUES.changeRequestMerge);
    let job: Job | undefined;
    for (let i = 0; i < 200 && !job; i++) {
      job = (await queue.getJobs(['waiting'])).find((j) => j?.data?.changeRequestId === cr.id);
      if (!job) await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.id).toBe(jobIdFor(job!.data.requestId));
    await job!.remove();
    const res = await merging;
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 503, message: expect.stringMatching(/lost this job.*Retry/) } });
  });
});
