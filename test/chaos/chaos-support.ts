import { ChildProcess, spawn } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { createServer, IncomingMessage, request, Server, ServerResponse } from 'http';
import { AddressInfo, createServer as createNetServer } from 'net';
import { join } from 'path';
import Redis from 'ioredis';
import { QuireConfig } from '@quire/platform/config/config';
import { API_NODE_FLAGS } from '../../apps/api/src/node-flags';
import { WORKER_NODE_FLAGS } from '../../apps/worker/src/node-flags';
import { processCpuMs } from '../support/process-cpu';

const REPO_ROOT = join(__dirname, '../..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A real process of `apps/worker` (BullMQ processors + projection runners) with the worker's V8 flags, killable with SIGKILL. */
export class WorkerProcess {
  private child?: ChildProcess;
  private output = '';

  /** `env` adds to the worker's environment (a setting a test gives the worker alone). */
  constructor(
    private readonly config: QuireConfig,
    private readonly opts: { env?: Record<string, string> } = {},
  ) {}

  async start(): Promise<void> {
    const env = {
      ...process.env,
      DATABASE_URL: this.config.databaseUrl,
      REDIS_URL: this.config.redisUrl,
      QUIRE_QUEUE_PREFIX: this.config.queuePrefix,
      DATA_DIR: this.config.dataDir,
      QUIRE_GIT_ALLOWED_HOSTS: this.config.gitAllowedHosts.join(','),
      QUIRE_JOB_RETRY_DELAY_MS: String(this.config.jobRetryDelayMs),
      LOG_LEVEL: 'info',
      ...this.opts.env,
    };
    // QUIRE_WORKER_CPU_PROF=<dir>: the worker writes a V8 CPU profile there when it exits (benchmarks' worker side).
    const profile = process.env.QUIRE_WORKER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.QUIRE_WORKER_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, ...profile, '-r', '@swc-node/register', 'apps/worker/src/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    await until('the worker to start', async () => this.output.includes('Quire worker running') || (child.exitCode !== null && Promise.reject(new Error(`worker exited: ${this.output}`))), 60_000);
  }

  /** The crash: no shutdown hook runs, the active job keeps its lock until it expires. */
  async kill(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child!.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child!.kill('SIGTERM');
    await exited;
  }

  private get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  get logs(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** CPU time it has used (user + system), in ms, from /proc (Linux; 10 ms ticks). */
  cpuMs(): number {
    return processCpuMs(this.child!.pid!);
  }
}

/**
 * The V8 flags the checkout at `root` starts its API with (this one's by default): another checkout
 * (a bench's baseline) is served as it would run, with none when it predates apps/api/src/node-flags.ts.
 */
function apiNodeFlags(root?: string): readonly string[] {
  if (!root) return API_NODE_FLAGS;
  const file = join(root, 'apps/api/src/node-flags.ts');
  return existsSync(file) ? (require(file) as { API_NODE_FLAGS: readonly string[] }).API_NODE_FLAGS : [];
}

/**
 * A real process of `apps/api` alone (no projections: they run where the worker runs), on its own
 * port over the installation `config` names. `root` runs another checkout's API (a baseline).
 * `peakRssBytes` is the kernel's high-water mark of its resident memory (VmHWM).
 */
export class ApiProcess {
  private child?: ChildProcess;
  private output = '';
  url = '';

  constructor(
    private readonly config: QuireConfig,
    private readonly opts: { env?: Record<string, string>; root?: string } = {},
  ) {}

  async start(): Promise<void> {
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: this.config.databaseUrl,
      REDIS_URL: this.config.redisUrl,
      QUIRE_QUEUE_PREFIX: this.config.queuePrefix,
      DATA_DIR: this.config.dataDir,
      QUIRE_PUBLIC_URL: this.config.publicUrl,
      QUIRE_PUBLISHED_URL: this.config.publishedUrl,
      QUIRE_CONTENT_CACHE_MB: String(Math.round(this.config.contentCacheBytes / 2 ** 20)),
      ...(this.config.adminToken ? { QUIRE_ADMIN_TOKEN: this.config.adminToken } : {}),
      // Not info: every request would be a log line through this process's pipe.
      LOG_LEVEL: 'warn',
      ...this.opts.env,
    };
    // QUIRE_API_CPU_PROF=<dir>: the API writes a V8 CPU profile there when it exits.
    const profile = process.env.QUIRE_API_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.QUIRE_API_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...apiNodeFlags(this.opts.root), ...profile, '-r', '@swc-node/register', 'apps/api/src/main.ts'], { cwd: this.opts.root ?? REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.on('data', (d) => (this.output = (this.output + d).slice(-20_000)));
    child.stderr!.on('data', (d) => (this.output = (this.output + d).slice(-20_000)));
    this.url = `http://127.0.0.1:${port}`;
    await until(
      'the API to start',
      async () => {
        if (child.exitCode !== null) throw new Error(`API exited: ${this.output}`);
        return fetch(`${this.url}/health/live`).then((r) => r.ok, () => false);
      },
      90_000,
    );
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }

  /** VmRSS and VmHWM from /proc (Linux), in bytes. */
  memory(): { rss: number; peakRss: number } {
    const status = readFileSync(`/proc/${this.child!.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
  }

  /** CPU time it has used (user + system), in ms, from /proc (Linux; 10 ms ticks). */
  cpuMs(): number {
    return processCpuMs(this.child!.pid!);
  }

  get logs(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }
}

/**
 * An HTTP proxy in front of the git server that holds the first pack download (git-upload-pack)
 * until released: it pins an import in the middle of its fetch.
 */
export async function startHoldingProxy(target: string): Promise<{ url: string; held: Promise<void>; release(): void; close(): Promise<void> }> {
  let onHeld!: () => void;
  const held = new Promise<void>((r) => (onHeld = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let holding = true;
  const upstream = new URL(target);
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (holding && req.method === 'POST' && req.url?.endsWith('/git-upload-pack')) {
      holding = false;
      onHeld();
      await released;
      if (req.socket.destroyed) return;
    }
    const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const sockets = new Set<import('net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    release,
    close: async () => {
      release();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A private redis-server (no persistence) on its own port: this test may stop it; the shared one is never touched. */
export class PrivateRedis {
  private child?: ChildProcess;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await until('redis-server to answer', async () => {
        try {
          if (probe.status !== 'ready') await probe.connect();
          return (await probe.ping()) === 'PONG';
        } catch {
          probe.disconnect();
          return false;
        }
      }, 10_000, 50);
    } finally {
      probe.disconnect();
    }
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
  }
}
