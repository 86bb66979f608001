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
 */
export async function run(): Promise<void> {
  const bundle = cloneFixtureBundle('pgsqlTw');
  try {
    const pages = bundle.markdownFiles.map((file) => file.text);
    const bytes = pages.reduce((total, page) => total + Buffer.byteLength(page), 0);
    const baselineDir = process.env.QUIRE_BENCH_BASELINE_DIR;
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
  const timePass = (convert: Convert): number => {
    const started = process.hrtime.bigint();
    for (const page of pages) convert(page);
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    timePass(baseline);
    timePass(markdownToDocument);
  }
  // Each pair runs in alternating order, so neither side always runs on the other's warm caches;
  // the fastest pass of each side is compared, as the one least disturbed by other processes.
  let baselineSeconds = Infinity;
  let currentSeconds = Infinity;
  for (let pass = 0; pass < COMPARED_PASSES; pass++) {
    const baselineFirst = pass % 2 === 0;
    for (const isBaseline of [baselineFirst, !baselineFirst]) {
      const seconds = timePass(isBaseline ? baseline : markdownToDocument);
      if (isBaseline) baselineSeconds = Math.min(baselineSeconds, seconds);
      else currentSeconds = Math.min(currentSeconds, seconds);
    }
  }
  const rate = (seconds: number) => Math.round(pages.length / seconds);
  console.log(`markdown-parse: ${pages.length} pages, baseline ${rate(baselineSeconds)} pages/s, this ${rate(currentSeconds)} pages/s, ratio ${(baselineSeconds / currentSeconds).toFixed(3)} (above 1: faster than the baseline)`);
}
