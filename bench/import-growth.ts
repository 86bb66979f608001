import { generateRepository } from './import-pipeline';
import { hostLoad, importOnce, median, startImportBench, workerPhases } from './git-import-harness';

/** Page counts imported; BENCH_GROWTH_PAGES=1000,5000,10000 by default. */
const SIZES = (process.env.BENCH_GROWTH_PAGES ?? '1000,5000,10000').split(',').map(Number);
/** Rounds per size (interleaved with the baseline as in `git-import`); the median is the figure. */
const RUNS = Number(process.env.BENCH_RUNS ?? 1);

/**
 * Issue 20's growth figure for imports: generated repositories of 1,000, 5,000 and 10,000 pages
 * (10 groups, 5 images per 100 pages), each imported over the local HTTP server into a new space
 * until live and searchable, next to the baseline of `git-import` (git clone + markdownToDocument
 * of every page) in the same round. Prints each time and the fitted exponent of time against
 * pages (the least-squares slope on log-log axes): 1 is linear, the target; the baseline's
 * exponent is printed for comparison.
 */
export async function run(): Promise<void> {
  const bench = await startImportBench('import-growth');
  try {
    const out = [`import growth: ${SIZES.join(', ')} pages (${RUNS} round${RUNS > 1 ? 's' : ''} each, interleaved with the baseline)`, `  ${await hostLoad()} before`];
    const points: Array<{ pages: number; importMs: number; baselineMs: number }> = [];
    await bench.warmUp(generateRepository(100, 5));
    for (const pages of SIZES) {
      const imports: number[] = [];
      const baselines: number[] = [];
      for (let n = 1; n <= RUNS; n++) {
        const files = generateRepository(pages, Math.max(1, Math.round(pages / 20)));
        const tag = `${pages}x${n}`;
        for (const path of Object.keys(files)) if (path.endsWith('.md') && path !== 'SUMMARY.md') files[path] = `${files[path]}\nRound ${tag}.\n`;
        const last = `part-10/page-${pages - 1}.md`;
        if (!files[last]) throw new Error(`${last} is not a page of the generated repository`);
        files[last] = `${files[last]}\nThe growthquokka${pages}r${n} lives here.\n`;
        const url = await bench.publish(`growth-${tag}`, files, 'Generated');
        const space = await bench.newSpace(`Growth ${tag}`);
        const importFirst = n % 2 === 0;
        const measureImport = () => importOnce(bench, space, url, { count: 1, searchFor: `growthquokka${pages}r${n}`, livePath: 'part-1/page-0' });
        const first = importFirst ? await measureImport() : undefined;
        const baseline = await bench.baseline(url);
        const imported = first ?? (await measureImport());
        imports.push(imported.ms);
        baselines.push(baseline.cloneMs + baseline.parseMs);
      }
      const point = { pages, importMs: median(imports), baselineMs: median(baselines) };
      points.push(point);
      out.push(
        `  ${String(pages).padStart(6)} pages: import ${Math.round(point.importMs)} ms (${((point.importMs / pages) * 1000).toFixed(0)} ms per 1,000 pages), ` +
          `baseline ${Math.round(point.baselineMs)} ms, ratio ${(point.importMs / point.baselineMs).toFixed(2)}`,
      );
    }
    out.push(
      `  fitted exponent (time ~ pages^k): import k = ${logLogSlope(points.map((p) => [p.pages, p.importMs])).toFixed(2)}, baseline k = ${logLogSlope(points.map((p) => [p.pages, p.baselineMs])).toFixed(2)}  (1 is linear)`,
      `  peak RSS of the worker process ${bench.workerPeakMb()} MB`,
      ...workerPhases(bench.worker, 0).map((line) => `    ${line}`),
      `  ${await hostLoad()} after`,
    );
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    await bench.close();
  }
}

/** Least-squares slope of log(y) against log(x). */
export function logLogSlope(points: Array<[number, number]>): number {
  const xs = points.map(([x]) => Math.log(x));
  const ys = points.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i] - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}
