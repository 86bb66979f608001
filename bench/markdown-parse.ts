import { execFile } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { markdownToDocument } from '@quire/content/markdown';
import { cloneFixtureBundle } from '@quire/content/markdown/testing/fixture-bundles';

type Convert = (markdown: string) => unknown;

const WARM_UP_PASSES = 2;
const PASSES = 3;
const COMPARED_PASSES = 8;

/**
 * `markdown-parse`: markdownToDocument throughput on the pgsql-tw docs (1,070 pages, 7.3 MB of
 * Traditional Chinese, SQL and tables). Two untimed passes let the JIT settle (the second pass
 * is still ~30% slower than later ones); the rate is over the three timed passes.
 * Target: well above 2,500 pages/s.
 *
 * With `QUIRE_BENCH_BASELINE_DIR` naming a checkout of another commit (`git worktree add
 * /tmp/base main`), that checkout's converter runs too, its passes interleaved with these in
 * the same process, and the ratio is printed: the figure to compare on a noisy host.
 *
 * With `QUIRE_BENCH_CALLGRIND=1` as well, the comparison counts instructions instead of timing
 * them, which does not depend on the host's load: each converter runs in a process of its own
 * (markdown-parse.child.ts) under `valgrind --tool=callgrind`, once with 1 pass over the pages
 * and once with 3; the difference over 2 is the instructions of one warmed-up pass (start-up,
 * compiling the TypeScript and the first pass's JIT work cancel out). The ratio printed is this
 * checkout's count over the baseline's. Each run takes some minutes (valgrind is ~50x slower).
 *   git worktree add /tmp/base <commit> && cp -al node_modules /tmp/base/
 *   QUIRE_BENCH_BASELINE_DIR=/tmp/base QUIRE_BENCH_CALLGRIND=1 npm run bench -- markdown-parse
 */
export async function run(): Promise<void> {
  const bundle = cloneFixtureBundle('pgsqlTw');
  try {
    const pages = bundle.markdownFiles.map((file) => file.text);
    const bytes = pages.reduce((total, page) => total + Buffer.byteLength(page), 0);
    const baselineDir = process.env.QUIRE_BENCH_BASELINE_DIR;
    if (baselineDir && process.env.QUIRE_BENCH_CALLGRIND === '1') return await compareInstructions(pages, baselineDir);
    if (baselineDir) return compareWithBaseline(pages, baselineDir);
    for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
      for (const page of pages) markdownToDocument(page);
    }

    const started = process.hrtime.bigint();
    for (let pass = 0; pass < PASSES; pass++) {
      for (const page of pages) markdownToDocument(page);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;

    const pagesPerSecond = (pages.length * PASSES) / seconds;
    const megabytesPerSecond = (bytes * PASSES) / 1e6 / seconds;
    console.log(`markdown-parse: ${pages.length} pages, ${Math.round(pagesPerSecond)} pages/s, ${megabytesPerSecond.toFixed(1)} MB/s`);
  } finally {
    bundle.remove();
  }
}

function compareWithBaseline(pages: string[], baselineDir: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const baseline = (require(join(baselineDir, 'libs/content/src/markdown')) as { markdownToDocument: Convert }).markdownToDocument;
  /** Wall and CPU seconds of one pass; CPU time (this process's user + system) moves far less with the host's load. */
  const timePass = (convert: Convert): { wall: number; cpu: number } => {
    const started = process.hrtime.bigint();
    const cpuStarted = process.cpuUsage();
    for (const page of pages) convert(page);
    const cpu = process.cpuUsage(cpuStarted);
    return { wall: Number(process.hrtime.bigint() - started) / 1e9, cpu: (cpu.user + cpu.system) / 1e6 };
  };
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    timePass(baseline);
    timePass(markdownToDocument);
  }
  // Each pair runs in alternating order, so neither side always runs on the other's warm caches;
  // the fastest pass of each side is compared, as the one least disturbed by other processes.
  const best = { baseline: { wall: Infinity, cpu: Infinity }, current: { wall: Infinity, cpu: Infinity } };
  for (let pass = 0; pass < COMPARED_PASSES; pass++) {
    const baselineFirst = pass % 2 === 0;
    for (const isBaseline of [baselineFirst, !baselineFirst]) {
      const seconds = timePass(isBaseline ? baseline : markdownToDocument);
      const side = isBaseline ? best.baseline : best.current;
      side.wall = Math.min(side.wall, seconds.wall);
      side.cpu = Math.min(side.cpu, seconds.cpu);
    }
  }
  const rate = (seconds: number) => Math.round(pages.length / seconds);
  console.log(
    `markdown-parse: ${pages.length} pages, baseline ${rate(best.baseline.wall)} pages/s, this ${rate(best.current.wall)} pages/s, ` +
      `ratio ${(best.baseline.wall / best.current.wall).toFixed(3)} by wall time, ${(best.baseline.cpu / best.current.cpu).toFixed(3)} by CPU time (above 1: faster than the baseline)`,
  );
}

const CALLGRIND_PASSES = [1, 3] as const;

async function compareInstructions(pages: string[], baselineDir: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-markdown-parse-'));
  try {
    const pagesFile = join(dir, 'pages.json');
    writeFileSync(pagesFile, JSON.stringify(pages));
    const count = (converterDir: string, passes: number, name: string) =>
      new Promise<number>((resolve, reject) => {
        const args = ['--tool=callgrind', `--callgrind-out-file=${join(dir, `${name}-${passes}.out`)}`, process.execPath, '-r', '@swc-node/register', join(__dirname, 'markdown-parse.child.ts'), converterDir, pagesFile, String(passes)];
        execFile('valgrind', args, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
          const collected = /Collected : (\d+)/.exec(stderr);
          if (error || !collected) reject(error ?? new Error(`no instruction count from valgrind:\n${stderr.slice(-2000)}`));
          else resolve(Number(collected[1]));
        });
      });
    // The four runs at once: counts do not depend on what else runs, and it takes a quarter of the wall time.
    const perPass = async (converterDir: string, name: string) => {
      const [few, many] = await Promise.all(CALLGRIND_PASSES.map((passes) => count(converterDir, passes, name)));
      return (many - few) / (CALLGRIND_PASSES[1] - CALLGRIND_PASSES[0]);
    };
    const [baseline, current] = await Promise.all([perPass(baselineDir, 'baseline'), perPass(join(__dirname, '..'), 'this')]);
    const millions = (n: number) => `${Math.round(n / 1e6)} M`;
    console.log(`markdown-parse (callgrind): ${pages.length} pages, instructions per pass: baseline ${millions(baseline)}, this ${millions(current)}, ratio ${(current / baseline).toFixed(3)} (below 1: fewer than the baseline)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
