import { ChildProcess, fork } from 'child_process';
import { Agent, get } from 'http';
import { performance } from 'perf_hooks';

/**
 * Sends requests one at a time from a process of its own and answers each one's time, in ms.
 *
 * Why a process of its own: the growth bench's process also runs both installations' projectors and
 * workers and has just driven the read loads through autocannon; measured from there, its own
 * mark-compacts (a few hundred MB of heap: 17-250 ms each, every 2-4 s during the searches) fell
 * inside the requests in flight, and the p99 of 160 searches (their second slowest) was as often
 * the bench's pause as the API's time. This process holds nothing but the requests, and makes
 * little garbage: node:http with the body's chunks dropped as they come, and a young generation
 * they die in (with fetch and `arrayBuffer()` on the default one, it still ran a mark-compact every
 * 13 searches, 14 ms on average on the loaded host).
 */
export class TimedClient {
  private readonly child: ChildProcess;
  private pending?: { resolve(ms: number[]): void; reject(err: Error): void };

  constructor() {
    this.child = fork(__filename, [], { execArgv: ['--min-semi-space-size=64', '--max-semi-space-size=64', '-r', '@swc-node/register'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: { ms?: number[]; error?: string }) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve(m.ms!);
    });
  }

  /** Each request's time, from its sending to the last byte of its body (a status other than 200 fails). */
  times(requests: ReadonlyArray<{ url: string; headers?: Record<string, string> }>): Promise<number[]> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send({ requests });
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

if (require.main === module) {
  const agent = new Agent({ keepAlive: true });
  // Kept-alive sockets would keep this process running once the bench lets it go.
  process.on('disconnect', () => agent.destroy());
  /** The request's time, to the last byte of its body (dropped as it comes). */
  const timed = (url: string, headers?: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      get(url, { agent, headers }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${url}: ${res.statusCode}`))));
        res.on('error', reject);
      }).on('error', reject);
    });
  process.on('message', async ({ requests }: { requests: Array<{ url: string; headers?: Record<string, string> }> }) => {
    try {
      const ms: number[] = [];
      for (const r of requests) ms.push(await timed(r.url, r.headers));
      process.send!({ ms });
    } catch (err) {
      process.send!({ error: String(err) });
    }
  });
}
