/**
 * The outbound guard on the git client: private, loopback and link-local addresses are refused
 * before any connection, however they are spelled or reached (a name, a redirect), unless an
 * operator allows the host.
 */
import { promises as fs } from 'fs';
import { createServer as createHttpServer, type Server } from 'http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { GitImportError, importGitRepository } from '@quire/content/import';
import { RefusedAddressError } from '@quire/platform/net/outbound-guard';
import { createRepoFromFiles, startGitHttpServer, type GitHttpServer } from '@quire/test-support/git-http-server';
import { gitHttpClient } from './git-http-client';

let scratch: string;
let git: GitHttpServer;
let gitPort: number;
/** Stands where the refused requests would land: any connection to it is a failure. */
let tripwire: TcpServer;
let tripwireV6: TcpServer | undefined;
let tripwirePort: number;
let connections = 0;
/** A host that answers every request with a redirect to where `redirectTo` says. */
let redirector: Server;
let redirectorPort: number;
let redirectTo = '';
let redirected = 0;

beforeAll(async () => {
  scratch = await fs.mkdtemp(join(tmpdir(), 'quire-git-guard-'));
  await createRepoFromFiles(join(scratch, 'repos'), 'docs', { 'README.md': '# Intranet secrets\n' });
  git = await startGitHttpServer({ root: join(scratch, 'repos') });
  gitPort = Number(new URL(git.url).port);
  tripwire = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((ready) => tripwire.listen(0, '127.0.0.1', ready));
  tripwirePort = (tripwire.address() as AddressInfo).port;
  // The same port on ::1 when this host has IPv6, so that [::1] would land somewhere too.
  tripwireV6 = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((ready) => tripwireV6!.once('error', () => ((tripwireV6 = undefined), ready())).listen(tripwirePort, '::1', ready));
  redirector = createHttpServer((req, res) => {
    redirected++;
    res.writeHead(302, { location: `${redirectTo}${req.url?.replace(/^\/[^/]+/, '')}` }).end();
  });
  await new Promise<void>((ready) => redirector.listen(0, '127.0.0.1', ready));
  redirectorPort = (redirector.address() as AddressInfo).port;
});

afterAll(async () => {
  await git?.close();
  await new Promise((closed) => tripwire?.close(closed));
  await new Promise((closed) => (tripwireV6 ? tripwireV6.close(closed) : closed(undefined)));
  await new Promise((closed) => redirector?.close(closed));
  await fs.rm(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  connections = 0;
  redirected = 0;
});

const infoRefs = (base: string) => ({ url: `${base}/info/refs?service=git-upload-pack`, method: 'GET', headers: {} });

describe('gitHttpClient: the outbound guard', () => {
  it.each([
    ['loopback', () => `http://127.0.0.1:${tripwirePort}/docs.git`],
    ['a private network', () => 'http://10.0.0.1/docs.git'],
    ['the link-local cloud metadata address', () => 'http://169.254.169.254/docs.git'],
    ['IPv6 loopback', () => `http://[::1]:${tripwirePort}/docs.git`],
    ['loopback spelled in hexadecimal', () => `http://0x7f000001:${tripwirePort}/docs.git`],
    ['a host name that resolves to loopback', () => `http://localhost:${tripwirePort}/docs.git`],
  ])('refuses %s without connecting', async (_, url) => {
    const client = gitHttpClient({ idleTimeoutMs: 5_000, allowedHosts: [] });
    await expect(client.request(infoRefs(url()))).rejects.toBeInstanceOf(RefusedAddressError);
    expect(connections).toBe(0);
  });

  it('checks every redirect: an allowed host cannot send the client on to a private address', async () => {
    const client = gitHttpClient({ idleTimeoutMs: 5_000, allowedHosts: [`localhost:${redirectorPort}`] });
    for (const target of [`http://127.0.0.1:${tripwirePort}`, `http://localhost:${tripwirePort}`, `http://[::1]:${tripwirePort}`]) {
      redirectTo = `${target}/docs.git`;
      await expect(client.request(infoRefs(`http://localhost:${redirectorPort}/docs.git`))).rejects.toBeInstanceOf(RefusedAddressError);
    }
    expect(redirected).toBe(3);
    expect(connections).toBe(0);
  });

  it('refuses a redirect to anything but http(s)', async () => {
    const client = gitHttpClient({ idleTimeoutMs: 5_000, allowedHosts: [`localhost:${redirectorPort}`] });
    redirectTo = 'file:///etc/docs.git';
    await expect(client.request(infoRefs(`http://localhost:${redirectorPort}/docs.git`))).rejects.toBeInstanceOf(RefusedAddressError);
  });
});

describe('importGitRepository behind the guard', () => {
  const cacheDir = () => join(scratch, 'cache');

  it('records a refused address as unreachable_host, not worth retrying, in the same words as any unreachable host', async () => {
    const error = await importGitRepository({ url: `http://localhost:${gitPort}/docs.git`, ref: 'refs/heads/main', cacheDir: cacheDir(), allowedHosts: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitImportError);
    expect(error).toMatchObject({
      code: 'unreachable_host',
      transient: false,
      message: `Cannot reach localhost:${gitPort}: the host is unknown, did not answer, or is not allowed (private and reserved addresses are refused unless an operator allows the host)`,
    });
    expect(git.requests).toBe(0);
  });

  it('imports from a host the operator allows, also through a redirect to another allowed host', async () => {
    const direct = await importGitRepository({ url: `${git.url}/docs.git`, ref: 'refs/heads/main', cacheDir: cacheDir(), allowedHosts: ['127.0.0.1'] });
    expect(new TextDecoder().decode(direct.files['README.md'])).toContain('Intranet secrets');

    redirectTo = `${git.url}/docs.git`;
    const viaRedirect = await importGitRepository({
      url: `http://localhost:${redirectorPort}/moved.git`,
      ref: 'refs/heads/main',
      cacheDir: cacheDir(),
      allowedHosts: [`localhost:${redirectorPort}`, `127.0.0.1:${gitPort}`],
    });
    expect(viaRedirect.commit.oid).toBe(direct.commit.oid);
    expect(redirected).toBeGreaterThanOrEqual(2);
  });
});
