/**
 * What the git import benchmarks (`git-import`, `import-growth`) share: a Quire with its worker
 * in its own process, a git server, the baseline (the git CLI's clone plus a parse of every page
 * of the clone with Quire's own markdown converter) and the import measured from the HTTP
 * request to live and searchable.
 */
import { execFile } from 'child_process';
import { promises as fs, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import MarkdownIt from 'markdown-it';
import { markdownToDocument } from '@quire/content/markdown';
import { createRepoFromFiles, GitHttpServer, startGitHttpServer } from '../test/support/git-http-server';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { WorkerProcess } from '../test/chaos/chaos-support';
import { cpuMsOfProcessesNamed, processCpu } from '../test/support/process-cpu';

const execFileAsync = promisify(execFile);

/** How often the bench asks whether the import is done: each request takes CPU from the import it waits for. */
const POLL_MS = 50;

/**
 * BENCH_SERVE_PACKED=1: each published commit is repacked (`git repack -ad`, untimed) before it
 * is fetched, so that the server sends deltas it has stored, as a git host does, instead of
 * searching for them among loose objects on every fetch. That search is git http-backend's own
 * work, paid alike by the baseline's clone and the import's fetch, and it grows faster than the
 * repository (pack-objects over the 10,000-page repository's loose objects: about 15 s of CPU,
 * against 0.8 s at 1,000 pages), so by default it is most of both sides of the ratio.
 */
const SERVE_PACKED = process.env.BENCH_SERVE_PACKED === '1';

export interface BaselineRun {
  cloneMs: number;
  /** CPU of the clone: the git CLI and the git server's processes for it (children of this process, reaped). */
  cloneCpuMs: number;
  /** markdownToDocument of every page of the clone, read from its working tree: the converter the import uses. */
  parseMs: number;
  /** markdown-it's bare `parse` of the same pages, for reference: the tokens only, no document. */
  markdownItMs: number;
  pages: number;
}

export interface ImportRun {
  ms: number;
  markdown: string;
}

export interface ImportBench {
  q: TestQuire;
  worker: WorkerProcess;
  token: string;
  org: string;
  /** Writes the files as a new commit of `name` on the server; returns its clone URL. */
  publish(name: string, files: Record<string, string | Uint8Array>, message: string): Promise<string>;
  /** `git clone` of the URL into a scratch directory, then every page of the clone parsed. */
  baseline(url: string): Promise<BaselineRun>;
  newSpace(title: string): Promise<string>;
  /**
   * One untimed import of a small repository, and one baseline of it: the measured rounds then
   * meet long-running processes, as a real worker and API are, not their first-use costs
   * (module loading, JIT warm-up, first statements), which cost the first import seconds.
   */
  warmUp(files: Record<string, string | Uint8Array>): Promise<void>;
  /** The worker's peak RSS so far (the kernel's high-water mark), in MB. */
  workerPeakMb(): number;
  close(): Promise<void>;
}

export async function startImportBench(name: string): Promise<ImportBench> {
  const scratch = await fs.mkdtemp(join(tmpdir(), `quire-bench-${name}-`));
  const root = join(scratch, 'repos');
  let git: GitHttpServer | undefined;
  let q: TestQuire | undefined;
  let worker: WorkerProcess | undefined;
  const close = async () => {
    await worker?.stop();
    await q?.close();
    await git?.close();
    await fs.rm(scratch, { recursive: true, force: true });
  };
  try {
    git = await startGitHttpServer({ root });
    q = await startTestQuire({}, { worker: false });
    // QUIRE_WORKER_CPU_PROF=<dir>: the worker writes a CPU profile there when it stops.
    worker = new WorkerProcess(q.config);
    await worker.start();
    const owner = await q.createUser('Bench');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Bench' } })).body.id;
    const server = git;
    const quire = q;
    const workerProcess = worker;
    let clones = 0;
    const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
    const bench: ImportBench = {
      q: quire,
      worker: workerProcess,
      token: owner.token,
      org,
      close,
      async publish(repo, files, message) {
        await createRepoFromFiles(root, repo, files, { message });
        if (SERVE_PACKED) await execFileAsync('git', ['repack', '-a', '-d', '-q'], { cwd: join(root, `${repo}.git`), env: gitEnv });
        return `${server.url}/${repo}.git`;
      },
      async baseline(url) {
        const dir = join(scratch, `clone-${++clones}`);
        const cpuBefore = cpuSnapshot();
        const started = performance.now();
        await execFileAsync('git', ['clone', '--quiet', url, dir], { env: gitEnv });
        const cloneMs = performance.now() - started;
        const cloneCpuMs = cpuSnapshot().git - cpuBefore.git;
        const paths = (await fs.readdir(dir, { recursive: true })).filter((path) => path.endsWith('.md') && !path.startsWith('.git/'));
        const texts = await Promise.all(paths.map((path) => fs.readFile(join(dir, path), 'utf8')));
        let t = performance.now();
        for (const text of texts) markdownToDocument(text);
        const parseMs = performance.now() - t;
        const md = new MarkdownIt({ html: true });
        t = performance.now();
        for (const text of texts) md.parse(text, {});
        const markdownItMs = performance.now() - t;
        await fs.rm(dir, { recursive: true, force: true });
        return { cloneMs, cloneCpuMs, parseMs, markdownItMs, pages: texts.length };
      },
      async newSpace(title) {
        // On a host busy enough that read models lag past the command timeout, the space is
        // recorded but its id not returned (503): another one is created.
        for (let attempt = 1; ; attempt++) {
          const r = await quire.http('POST', `/v1/orgs/${org}/spaces`, { token: owner.token, body: { title } });
          if (r.status === 201 || r.status === 200) return r.body.id;
          if (r.status !== 503 || attempt === 3) throw new Error(`create space: ${r.status} ${JSON.stringify(r.body)}`);
          await sleep(2000);
        }
      },
      async warmUp(files) {
        const url = await bench.publish('warm-up', { ...files, 'README.md': `${files['README.md']}\nThe warmupwombat lives here.\n` }, 'Warm-up');
        await bench.baseline(url);
        await importOnce({ q: quire, token: owner.token }, await bench.newSpace('Warm-up'), url, { count: 1, searchFor: 'warmupwombat', livePath: 'part-1/page-0' });
      },
      workerPeakMb() {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${workerProcess.pid}/status`, 'utf8'));
        return hwm ? Math.round(Number(hwm[1]) / 1024) : NaN;
      },
    };
    return bench;
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Requests an import and waits until it is live (`livePath` served from the new revision, with
 * `liveText` in it when given) and
 * searchable (search finds `searchFor`). `count` is how many imports of the space are then done.
 */
export async function importOnce(
  bench: Pick<ImportBench, 'q' | 'token'>,
  space: string,
  url: string,
  opts: { count: number; searchFor: string; livePath: string; liveText?: string },
): Promise<ImportRun> {
  const { q, token } = bench;
  // The polls go out as plain requests: `q.http` checks every answer against GitBook's OpenAPI
  // schemas (ajv), 140-200 ms of CPU per round of git-import in a profile, on the thread that
  // runs the API and the projector under measurement. The e2e suites check those answers' shapes.
  const get = async (path: string) => {
    const res = await fetch(q.url + path, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  const started = performance.now();
  const r = await q.http('POST', `/v1/spaces/${space}/git/import`, { token, body: { url, ref: 'refs/heads/main' } });
  if (r.status !== 204) throw new Error(`import request: ${r.status} ${JSON.stringify(r.body)}`);
  for (;;) {
    const runs = await get(`/v1/spaces/${space}/git/imports`);
    const done = runs.body.items.filter((i: any) => !['queued', 'running'].includes(i.status));
    if (done.length >= opts.count) {
      if (done[0].status !== 'completed') throw new Error(`import ${done[0].status}: ${JSON.stringify(done[0].error)}`);
      break;
    }
    await sleep(POLL_MS);
  }
  // Live: the new revision is what the space serves. Read models commit side by side: when the
  // import's own says it completed, the space may still serve its previous revision (404 for a
  // page it lacks) or one the content read model has not reached (503).
  const pagePath = `/v1/spaces/${space}/content/path/${opts.livePath}?format=markdown`;
  let page = await get(pagePath);
  const notYet = () => page.status === 503 || page.status === 404 || (page.status === 200 && !!opts.liveText && !String(page.body.markdown).includes(opts.liveText));
  for (const deadline = Date.now() + 60_000; notYet() && Date.now() < deadline; ) {
    await sleep(POLL_MS);
    page = await get(pagePath);
  }
  if (page.status !== 200) throw new Error(`page not live: ${page.status}`);
  // Searchable: the search index has the new revision.
  for (;;) {
    const found = await get(`/v1/spaces/${space}/search?query=${opts.searchFor}`);
    if (found.status !== 200) throw new Error(`search: ${found.status} ${JSON.stringify(found.body)}`);
    if (found.body.items.length > 0) break;
    await sleep(POLL_MS);
  }
  return { ms: performance.now() - started, markdown: page.body.markdown as string };
}

/** The worker's own account of each import of at least `minPages` pages, from its log. */
export function workerPhases(worker: WorkerProcess, minPages: number): string[] {
  const out: string[] = [];
  for (const line of worker.logs.split('\n')) {
    if (!line.includes('git import completed')) continue;
    const { pages, fetchMs, readMs, writtenMs, appendedMs, liveMs, projectedMs, totalMs, lagging } = JSON.parse(line);
    if (lagging) {
      // Completed before its read models caught up (the worker stopped waiting): no phase figures.
      out.push(`worker: revision written ${writtenMs} ms; read models still catching up (${lagging.join(', ')}) at ${totalMs} ms`);
      continue;
    }
    if (pages < minPages) continue;
    out.push(
      `worker, ${pages} pages: fetch ${fetchMs} ms, read ${readMs} ms, revision written ${writtenMs} ms, appended ${appendedMs} ms, ` +
        `live (spaces and content read models) ${liveMs} ms, read models caught up (search included) ${projectedMs} ms; total ${totalMs} ms`,
    );
  }
  return out;
}

/**
 * CPU used so far, in ms (Linux, 10 ms ticks), by: this process (the API, the projector, the
 * bench's requests; `self`), the worker, this process's children that have ended (the git CLI's
 * clones and the git server's `http-backend` runs, `git`), and every PostgreSQL process.
 * Steadier than wall time on a shared host, and it says where an import's time goes.
 */
export interface CpuSnapshot {
  self: number;
  worker: number;
  git: number;
  postgres: number;
}

export function cpuSnapshot(worker?: WorkerProcess): CpuSnapshot {
  const own = processCpu('self');
  return { self: own.cpu, worker: worker ? worker.cpuMs() : 0, git: own.children, postgres: cpuMsOfProcessesNamed('postgres') };
}

export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  return { self: after.self - before.self, worker: after.worker - before.worker, git: after.git - before.git, postgres: after.postgres - before.postgres };
}

export const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export async function hostLoad(): Promise<string> {
  const [one, five] = (await fs.readFile('/proc/loadavg', 'utf8')).split(' ');
  return `host load average ${one} (1 min), ${five} (5 min)`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
