import { appendFileSync, mkdtempSync, rmSync } from 'fs';
import { request as httpRequest } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import { GitBookAPI } from '@gitbook/api';
import { loadConfig, QuireConfig } from '@quire/platform/config/config';
import { startApi, StartedApi } from '../../apps/api/src/bootstrap';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase, uniquePrefix } from './databases';
import { recordViolations, validatingFetch } from './openapi';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestQuire {
  url: string;
  config: QuireConfig;
  started: StartedApi;
  /** Every /v1 response (of the clients below and of `http`) that broke GitBook's OpenAPI schema. */
  violations: string[];
  admin: GitBookAPI;
  client(token?: string): GitBookAPI;
  /** Raw HTTP for what the client cannot express (bad JSON, unknown routes, a `host` header: sent through node's http, redirects not followed). */
  http(method: string, path: string, opts?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  createUser(displayName?: string): Promise<{ id: string; token: string; api: GitBookAPI }>;
  close(): Promise<void>;
}

/**
 * The whole system (API + worker + projector) on a fresh database, Redis prefix and data dir;
 * `worker: false` leaves the worker out, for a test that runs it as its own process; `database`
 * and `dataDir` start it on existing ones instead (left in place at close).
 */
export async function startTestQuire(
  overrides: Partial<QuireConfig> = {},
  opts: { worker?: boolean; database?: TestDatabase; dataDir?: string } = {},
): Promise<TestQuire> {
  // A database and data dir given by the caller (a benchmark reusing seeded data) stay its own: kept at close.
  const database: TestDatabase = opts.database ?? (await createTestDatabase('quire_e2e'));
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'quire-e2e-'));
  const config = loadConfig(
    { LOG_LEVEL: 'warn' },
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      queuePrefix: uniquePrefix('e2e'),
      adminToken: ADMIN_TOKEN,
      // The local git HTTP server (test/support/git-http-server.ts) is a private address the
      // tests' operator allows, as one would an intranet git host.
      gitAllowedHosts: ['127.0.0.1'],
      ...overrides,
    },
  );
  const started = await startApi(config, { runProjections: true, redis: true, extraModules: () => (opts.worker === false ? [] : [WorkerModule]) });
  const url = started.url;
  config.publicUrl = config.publicUrl;
  const violations: string[] = [];
  const client = (token?: string) => new GitBookAPI({ endpoint: url, authToken: token, serviceBinding: validatingFetch(violations) as any });
  let users = 0;
  const self: TestQuire = {
    url,
    config,
    started,
    violations,
    admin: client(ADMIN_TOKEN),
    client,
    async http(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] = 'application/json';
      } else if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      // fetch() sends its own Host header whatever it is given: a custom one needs node's http.
      const res = Object.keys(headers).some((h) => h.toLowerCase() === 'host') ? await requestWithHost(url + path, method, headers, body) : await fetch(url + path, { method, headers, body });
      const text = await res.text();
      // Raw calls to GitBook operations are held to the same schema as the client's.
      recordViolations(violations, method.toUpperCase(), new URL(url + path).pathname, res.status, res.headers.get('content-type'), text);
      let parsed: any = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async createUser(displayName = `User ${++users}`) {
      const email = `${displayName.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@example.com`;
      const created = await self.http('POST', '/v1/users', { token: ADMIN_TOKEN, body: { displayName, email } });
      if (created.status !== 201) throw new Error(`createUser: ${created.status} ${JSON.stringify(created.body)}`);
      const token = await self.http('POST', `/v1/users/${created.body.id}/tokens`, { token: ADMIN_TOKEN, body: {} });
      if (token.status !== 201) throw new Error(`createToken: ${token.status} ${JSON.stringify(token.body)}`);
      return { id: created.body.id, token: token.body.token, api: client(token.body.token) };
    },
    async close() {
      if (process.env.QUIRE_VIOLATIONS_LOG && violations.length) appendFileSync(process.env.QUIRE_VIOLATIONS_LOG, violations.map((v) => `${expect.getState().testPath}: ${v}\n`).join(''));
      await started.close();
      if (!opts.database) await database.drop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return self;
}

/** One request through node's http, answered as a fetch Response (no redirects followed). */
function requestWithHost(target: string, method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(target, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = res.statusCode ?? 0;
        resolve(new Response(status === 204 || status === 205 || status === 304 || method === 'HEAD' ? null : Buffer.concat(chunks), { status, headers: out }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
