import { mkdtempSync, rmSync } from 'fs';
import { createServer as createHttpServer, type Server } from 'http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

/**
 * An ordinary user asks the worker to import from addresses only the server can reach: every
 * one is refused before a connection is made, recorded with one generic reason, and not retried.
 * The operator here allows one host only (the "public" redirector, which redirects to loopback).
 */
describe('git import: private addresses are refused (e2e)', () => {
  let q: TestQuire;
  let root: string;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let tripwire: TcpServer;
  let tripwirePort: number;
  let connections = 0;
  let redirector: Server;
  let redirectorPort: number;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-git-guard-e2e-'));
    await createRepoFromFiles(root, 'intranet', { 'README.md': '# Intranet\n\nThe launch codes.\n' });
    git = await startGitHttpServer({ root });
    tripwire = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((ready) => tripwire.listen(0, '127.0.0.1', ready));
    tripwirePort = (tripwire.address() as AddressInfo).port;
    redirector = createHttpServer((req, res) => res.writeHead(302, { location: `http://127.0.0.1:${tripwirePort}${req.url}` }).end());
    await new Promise<void>((ready) => redirector.listen(0, '127.0.0.1', ready));
    redirectorPort = (redirector.address() as AddressInfo).port;
    q = await startTestQuire({ gitAllowedHosts: [`localhost:${redirectorPort}`] });
    owner = await q.createUser('Prober');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Probing Org' } })).body.id;
  }, 60_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    await new Promise((closed) => tripwire?.close(closed));
    await new Promise((closed) => redirector?.close(closed));
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  async function failedImport(url: string) {
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Probe' } as any);
    expect((await q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: owner.token, body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const [run] = (await q.http('GET', `/v1/spaces/${space.id}/git/imports`, { token: owner.token })).body.items;
      if (run && !['queued', 'running'].includes(run.status)) {
        const job = await q.started.runtime.jobs!.queue(QUEUES.gitImport).getJob(jobIdFor(run.id));
        return { run, attempts: job?.attemptsMade, pages: (await owner.api.spaces.getCurrentRevision(space.id)).data.pages.map((p: any) => p.title) };
      }
    }
    throw new Error(`the import of ${url} did not settle`);
  }

  it.each([
    ['loopback', () => `http://127.0.0.1:${tripwirePort}/intranet.git`],
    ['a private network', () => 'http://10.0.0.1/intranet.git'],
    ['the link-local cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `http://[::1]:${tripwirePort}/intranet.git`],
    ['loopback spelled in hexadecimal', () => `http://0x7f000001:${tripwirePort}/intranet.git`],
    ['a host name that resolves to loopback', () => `http://localhost:${tripwirePort}/intranet.git`],
    ['an allowed host that redirects to loopback', () => `http://localhost:${redirectorPort}/intranet.git`],
  ])('refuses %s without a connection, with one generic reason, and no retry', async (_, url) => {
    connections = 0;
    const { run, attempts, pages } = await failedImport(url());
    expect(run).toMatchObject({ status: 'failed', error: { code: 'unreachable_host' } });
    expect(run.error.message).toMatch(/^Cannot reach [^ ]+: the host is unknown, did not answer, or is not allowed \(private and reserved addresses are refused unless an operator allows the host\)$/);
    expect(attempts).toBe(1);
    expect(connections).toBe(0);
    expect(pages).toEqual(['Probe']);
  });

  it('refuses the local git server itself, which other tests reach only because their operator allows it', async () => {
    const { run } = await failedImport(`${git.url}/intranet.git`);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'unreachable_host' } });
    expect(git.requests).toBe(0);
  });
});
