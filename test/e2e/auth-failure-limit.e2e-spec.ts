import { startTestQuire, TestQuire } from '../support/quire-app';

/** Guessing tokens is limited per address by default, with QUIRE_RATE_LIMIT off. */
describe('failed authentication limit (e2e, default configuration)', () => {
  let q: TestQuire;

  beforeAll(async () => {
    q = await startTestQuire();
  }, 60_000);
  afterAll(async () => {
    await q?.close();
  });

  it('answers 429 with Retry-After to an address past 20 failed authentications, whatever credentials it sends', async () => {
    expect(q.config.rateLimitPerMinute).toBe(0);
    const user = await q.createUser('Victim');
    // Requests without credentials are not guesses.
    for (let i = 0; i < 25; i++) expect((await q.http('GET', '/v1/user')).status).toBe(401);
    for (let i = 0; i < 20; i++) expect((await q.http('GET', '/v1/user', { token: `gb_api_guess${i}` })).status).toBe(401);

    const guess = await q.http('GET', '/v1/user', { token: 'gb_api_guess-21' });
    expect(guess.status).toBe(429);
    expect(guess.body).toEqual({ error: { code: 429, message: expect.stringMatching(/^Too many failed authentications from this address; retry in \d+ s$/) } });
    expect(Number(guess.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused before the token is looked at: a right guess looks no different.
    expect((await q.http('GET', '/v1/user', { token: user.token })).status).toBe(429);
    // What needs no credentials is not refused: health checks, the published site, a 401 saying to authenticate.
    expect((await fetch(`${q.url}/health/live`)).status).toBe(200);
    expect((await q.http('GET', '/v1/user')).status).toBe(401);
  });
});
