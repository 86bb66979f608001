import 'reflect-metadata';
import { All, Controller, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { EventEmitter } from 'events';
import { readFileSync } from 'fs';
import type { AddressInfo } from 'net';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
// @ts-expect-error autocannon ships no type declarations
import autocannonUntyped from 'autocannon';

/**
 * The same-body baseline of every read benchmark: a NestJS-on-Fastify app (the versions Quire
 * runs, from the same node_modules) that answers each recorded path with the exact status,
 * headers and body Quire gave for it, so that what a Quire figure is compared with is the
 * framework doing nothing but answering. Both run in the benchmark's process (autocannon in a
 * worker thread), are loaded with the same connections and duration, and are measured in
 * interleaved rounds (Quire, baseline, Quire, ...) whose medians give the ratio, so a load spike
 * from the shared host hits both sides.
 *
 *   const baseline = await SameBodyBaseline.record(q.url, requests, headers);
 *   const cmp = await compareWithBaseline({ url: q.url, baseline, requests, headers });
 *   printComparison('GET /v1/spaces/{id}', cmp);
 *   await baseline.close();
 */

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

/** One request of a load: a GET unless said otherwise, with an optional JSON body. */
export interface BenchRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers the baseline's own HTTP stack sets (or that describe one connection), not replayed. */
const NOT_REPLAYED = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id']);

const key = (method: string | undefined, path: string) => `${(method ?? 'GET').toUpperCase()} ${path}`;

export class SameBodyBaseline {
  private constructor(
    private readonly app: NestFastifyApplication,
    readonly url: string,
    readonly responses: ReadonlyMap<string, RecordedResponse>,
  ) {}

  /**
   * Sends each request once to `target` (Quire) and starts a baseline that answers it with what
   * came back. Throws when a recorded answer is not a 2xx: a baseline of error bodies would
   * compare nothing.
   */
  static async record(target: string, requests: BenchRequest[], headers: Record<string, string> = {}): Promise<SameBodyBaseline> {
    const responses = new Map<string, RecordedResponse>();
    for (const r of requests) {
      const k = key(r.method, r.path);
      if (responses.has(k)) continue;
      const res = await fetch(target + r.path, { method: r.method ?? 'GET', headers: { ...headers, ...r.headers }, body: r.body });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status < 200 || res.status >= 300) throw new Error(`same-body baseline: ${k} answered ${res.status}: ${body.toString('utf8').slice(0, 200)}`);
      const kept: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        if (!NOT_REPLAYED.has(name)) kept[name] = value;
      });
      responses.set(k, { status: res.status, headers: kept, body });
    }
    return SameBodyBaseline.serve(responses);
  }

  /** A baseline answering the given responses (keyed `METHOD /path?query`). */
  static async serve(responses: Map<string, RecordedResponse>): Promise<SameBodyBaseline> {
    @Controller()
    class SameBodyController {
      // One handler for every path, as Quire's routes are; the lookup is a Map get.
      @All('*')
      get(@Req() req: { method: string; url: string }, @Res({ passthrough: true }) reply: { code(n: number): unknown; headers(h: Record<string, string>): unknown }) {
        const found = responses.get(key(req.method, req.url));
        if (!found) {
          reply.code(404);
          return { error: { code: 404, message: `Not recorded: ${req.method} ${req.url}` } };
        }
        reply.code(found.status);
        reply.headers(found.headers);
        return found.body;
      }
    }
    @Module({ controllers: [SameBodyController] })
    class SameBodyModule {}

    const adapter = new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 } } as any);
    const app = await NestFactory.create<NestFastifyApplication>(SameBodyModule, adapter, { logger: false });
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as AddressInfo;
    return new SameBodyBaseline(app, `http://127.0.0.1:${address.port}`, responses);
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered in the measured seconds. */
  total?: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time of the process's main thread (where both Quire and the baseline answer; autocannon
   * runs in a worker thread) per request, in microseconds: what a request costs the server,
   * which, unlike req/s, does not swing with what other processes take from a shared host.
   */
  cpuUsPerRequest: number;
}

/** CPU time (user + system) of this process's main thread so far, in microseconds (Linux; NaN elsewhere). */
function mainThreadCpuUs(): number {
  try {
    // /proc/<pid>/task/<pid>/stat: the main thread alone; fields 14 and 15 (utime, stime) in clock ticks.
    const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux that node runs on. */
const CLOCK_TICKS = 100;

export interface Comparison {
  quire: LoadFigures;
  baseline: LoadFigures;
  /** Quire's req/s over the baseline's (medians). */
  throughputRatio: number;
  /** Quire's p99 over the baseline's (medians). */
  p99Ratio: number;
  /** Quire's main-thread CPU per request over the baseline's (medians): the figure the host's load moves least. */
  cpuRatio: number;
  rounds: number;
}

export interface CompareOptions {
  /** Quire's base URL. */
  url: string;
  baseline: SameBodyBaseline;
  requests: BenchRequest[];
  /** Sent with every request to both sides (the baseline ignores them). */
  headers?: Record<string, string>;
  connections?: number;
  /** Seconds of each measured run; BENCH_SECONDS (10) unless given. */
  seconds?: number;
  /** Interleaved rounds (median taken); BENCH_ROUNDS (3) unless given. */
  rounds?: number;
}

/**
 * Loads `url` with autocannon in a worker thread; `warmup` seconds first, not measured.
 *
 * autocannon's latency histogram counts whole milliseconds, so a p99 of 2.9 ms reads 2: too coarse
 * to compare two p99s of a few milliseconds. With `exactLatency` (for a server in another process
 * only: the load then runs on this process's main thread), p50 and p99 come from every 2xx
 * response's own time instead, as autocannon measured it (sub-millisecond).
 */
export async function measureLoad(opts: {
  url: string;
  requests: BenchRequest[];
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  warmup?: number;
  exactLatency?: boolean;
}): Promise<LoadFigures> {
  const requests = opts.requests.map((r) => ({ method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body }));
  const base = { url: opts.url, headers: opts.headers ?? {}, connections: opts.connections, requests, ...(opts.exactLatency ? {} : { workers: 1 }) };
  if (opts.warmup) await autocannon({ ...base, duration: opts.warmup });
  const cpu = mainThreadCpuUs();
  const run = autocannon({ ...base, duration: opts.seconds });
  const times: number[] = [];
  if (opts.exactLatency) {
    (run as unknown as EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  }
  const r = await run;
  const cpuUsPerRequest = (mainThreadCpuUs() - cpu) / Math.max(1, r.requests.total);
  const latency = opts.exactLatency ? { p50: percentile(times, 0.5), p99: percentile(times, 0.99) } : r.latency;
  return { rps: r.requests.average, p50: latency.p50, p99: latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, cpuUsPerRequest };
}

/** The p-quantile of `xs` (the sample at rank floor(p * n) of the sorted samples); NaN when empty. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/**
 * Quire and the baseline, the same requests, connections and duration, in `rounds` interleaved
 * rounds (each side warmed 2 s once first); each side's req/s and p99 are the medians of its rounds.
 */
export async function compareWithBaseline(opts: CompareOptions): Promise<Comparison> {
  const connections = opts.connections ?? 32;
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = opts.rounds ?? Number(process.env.BENCH_ROUNDS ?? 3);
  const sides = { quire: opts.url, baseline: opts.baseline.url };
  const runs: Record<keyof typeof sides, LoadFigures[]> = { quire: [], baseline: [] };
  for (const side of ['quire', 'baseline'] as const) {
    await measureLoad({ url: sides[side], requests: opts.requests, headers: opts.headers, connections, seconds: 2 });
  }
  for (let round = 0; round < rounds; round++) {
    // Alternate who goes first, so neither side always follows the other's garbage.
    const order = round % 2 === 0 ? (['quire', 'baseline'] as const) : (['baseline', 'quire'] as const);
    for (const side of order) runs[side].push(await measureLoad({ url: sides[side], requests: opts.requests, headers: opts.headers, connections, seconds }));
  }
  const quire = medianFigures(runs.quire);
  const baseline = medianFigures(runs.baseline);
  return { quire, baseline, throughputRatio: quire.rps / baseline.rps, p99Ratio: quire.p99 / Math.max(baseline.p99, 1), cpuRatio: quire.cpuUsPerRequest / baseline.cpuUsPerRequest, rounds };
}

function medianFigures(runs: LoadFigures[]): LoadFigures {
  const m = (pick: (f: LoadFigures) => number) => median(runs.map(pick));
  return {
    rps: m((f) => f.rps),
    p50: m((f) => f.p50),
    p99: m((f) => f.p99),
    non2xx: runs.reduce((s, f) => s + f.non2xx, 0),
    errors: runs.reduce((s, f) => s + f.errors, 0),
    cpuUsPerRequest: m((f) => f.cpuUsPerRequest),
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Two lines per figure: Quire's and the baseline's req/s and p99, then the ratios against the
 * issue's targets (>= 50% of the baseline's req/s, p99 within 3x).
 */
export function printComparison(label: string, c: Comparison, targets = { throughput: 0.5, p99: 3 }): void {
  const side = (name: string, f: LoadFigures) =>
    `  ${name.padEnd(9)} ${Math.round(f.rps).toLocaleString('en-US').padStart(8)} req/s  p50 ${f.p50.toFixed(1).padStart(5)} ms  p99 ${f.p99.toFixed(1).padStart(5)} ms  main-thread CPU ${f.cpuUsPerRequest.toFixed(0).padStart(4)} us/req\n`;
  const ok = (b: boolean) => (b ? 'ok' : 'MISSED');
  process.stdout.write(`${label} (median of ${c.rounds} interleaved rounds)\n`);
  process.stdout.write(side('quire', c.quire));
  process.stdout.write(side('baseline', c.baseline));
  process.stdout.write(
    `  ratio     ${c.throughputRatio.toFixed(2).padStart(8)} x req/s (target >= ${targets.throughput}: ${ok(c.throughputRatio >= targets.throughput)})` +
      `  p99 ${c.p99Ratio.toFixed(2)} x (target <= ${targets.p99}: ${ok(c.p99Ratio <= targets.p99)})  CPU/req ${c.cpuRatio.toFixed(2)} x\n`,
  );
  if (c.quire.non2xx || c.quire.errors) process.stdout.write(`  !! quire: ${c.quire.non2xx} non-2xx responses, ${c.quire.errors} errors\n`);
  if (c.baseline.non2xx || c.baseline.errors) process.stdout.write(`  !! baseline: ${c.baseline.non2xx} non-2xx responses, ${c.baseline.errors} errors\n`);
}
