import { ChildProcess, spawn } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { connect, Socket } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase, uniquePrefix } from '../../../../test/support/databases';
import { freePort, sleep, until } from '../../../../test/chaos/chaos-support';

const REPO_ROOT = join(__dirname, '../../../..');
const ADMIN = 'shutdown-admin-token-0123456789';

/** What came back on a raw socket: the status of the first response, or how the socket ended. */
function outcome(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    // Closed by the server before we asked (an idle keep-alive socket at shutdown).
    if (socket.destroyed || socket.readyState !== 'open') return resolve('closed');
    let data = '';
    socket.on('data', (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m && data.includes('\r\n\r\n')) resolve(m[1]);
    });
    socket.once('error', (err: any) => resolve(err.code ?? 'error'));
    socket.once('close', () => resolve(data ? data.slice(0, 12) : 'closed'));
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

describe('SIGTERM: a graceful shutdown', () => {
  let db: TestDatabase;
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('quire_shutdown');
    dataDir = mkdtempSync(join(tmpdir(), 'quire-shutdown-'));
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses new requests at once, finishes the one in flight, then closes workers, projector and database and exits 0', async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      QUIRE_QUEUE_PREFIX: uniquePrefix('shutdown'),
      DATA_DIR: dataDir,
      QUIRE_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'info',
    };
    let output = '';
    child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/all-in-one.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    await until('the API to listen', async () => output.includes('Quire API listening') || (child!.exitCode !== null && Promise.reject(new Error(output))), 90_000);

    // In flight: the headers are in, half of the body is not.
    const body = JSON.stringify({ displayName: 'Late writer', email: 'late@example.com' });
    const inFlight = await open(port);
    const inFlightOutcome = outcome(inFlight);
    inFlight.write(`POST /v1/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    inFlight.write(body.slice(0, 10));
    // A keep-alive connection that has already served a request.
    const keepAlive = await open(port);
    const first = outcome(keepAlive);
    keepAlive.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await first).toBe('200');
    keepAlive.removeAllListeners('data');
    await sleep(200);

    child.kill('SIGTERM');

    // New connections are refused...
    await until('new connections to be refused', async () => {
      try {
        const s = await open(port);
        const status = outcome(s);
        s.write('GET /health/ready HTTP/1.1\r\nHost: x\r\n\r\n');
        const seen = await status;
        s.destroy();
        // Accepted before the listener closed: readiness must already say no.
        expect(seen).not.toBe('200');
        return false;
      } catch (err: any) {
        return err.code === 'ECONNREFUSED';
      }
    }, 10_000, 50);
    // ...and a request on an open keep-alive connection is refused or its socket is closed.
    const late = outcome(keepAlive);
    if (!keepAlive.destroyed) keepAlive.write('GET /health/ready HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(['503', 'closed', 'ECONNRESET', 'EPIPE']).toContain(await late);

    // The request in flight still completes.
    inFlight.write(body.slice(10));
    expect(await inFlightOutcome).toBe('201');

    expect(await exited).toBe(0);
    const order = ['SIGTERM received', 'HTTP server closed', 'job workers closed', 'projector and database closed'].map((line) => output.indexOf(line));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  }, 180_000);
});
