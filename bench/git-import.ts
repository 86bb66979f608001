import { generateRepository } from './import-pipeline';
import { cpuSnapshot, cpuSpent, CpuSnapshot, hostLoad, importOnce, median, startImportBench, workerPhases } from './git-import-harness';

/** Rounds (each its own repository, with its own bytes, into its own space); the median is the figure. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Issue 20's target: live and searchable within 1.5x of the baseline. */
const TARGET_RATIO = 1.5;

const cpuTotal = (cpu: CpuSnapshot) => cpu.self + cpu.worker + cpu.git + cpu.postgres;

/**
 * A 1,000-page, 50-image repository imported over the local HTTP server, from the HTTP request
 * to live and searchable content, against the baseline measured side by side in the same round:
 * `git clone` of the same repository by the git CLI, plus a parse of every page of the clone
 * with the converter the import uses (markdownToDocument). Rounds are interleaved (the baseline
 * first in odd rounds, the import first in even ones), and each figure is the median of RUNS
 * rounds over repositories that share no bytes (no cache helps a later round). Also: the
 * re-import after a one-page change, and the worker's peak memory; and each side's CPU (see
 * cpuSnapshot: this process's API and projector, the worker, the git server, PostgreSQL against
 * the clone's git processes and the parse), steadier than wall time on a shared host and what
 * bounds it on 2 cores. The worker runs as its own
 * process (apps/worker, as `npm run start:worker` runs it, through the TypeScript loader); the
 * API and the projector in this one.
 *
 * QUIRE_WORKER_CPU_PROF=<dir> writes the worker's CPU profile there (run this process with
 * `node --cpu-prof` for its own).
 */
export async function run(): Promise<void> {
  const bench = await startImportBench('git-import');
  try {
    const rounds: Array<{ cloneMs: number; parseMs: number; markdownItMs: number; importMs: number; reimportMs: number; cloneCpuMs: number; importCpu: CpuSnapshot }> = [];
    const out = [`git import, 1,000 pages + 50 images, over local HTTP (${RUNS} interleaved rounds, medians)`, `  ${await hostLoad()} before`];
    await bench.warmUp(generateRepository(100, 5));
    for (let n = 1; n <= RUNS; n++) {
      const files = generateRepository(1000, 50);
      // Bytes of this round only; and a word only one page has: the import counts as done when search finds it.
      for (const path of Object.keys(files)) if (path.endsWith('.md') && path !== 'SUMMARY.md') files[path] = `${files[path]}\nRun ${n}.\n`;
      files['part-10/page-999.md'] = `${files['part-10/page-999.md']}\nThe quokkazephyr${n} lives here.\n`;
      const url = await bench.publish(`bench-${n}`, files, 'Generated');
      const space = await bench.newSpace(`Bench ${n}`);
      const importFirst = n % 2 === 0;
      const importTimed = async () => {
        const before = cpuSnapshot(bench.worker);
        const run = await importOnce(bench, space, url, { count: 1, searchFor: `quokkazephyr${n}`, livePath: 'part-3/page-250' });
        return { ...run, cpu: cpuSpent(before, cpuSnapshot(bench.worker)) };
      };
      const first = importFirst ? await importTimed() : undefined;
      const baseline = await bench.baseline(url);
      const imported = first ?? (await importTimed());

      files['part-3/page-250.md'] = `${files['part-3/page-250.md']}\nOne more line, about the wombatquasar${n}.\n`;
      await bench.publish(`bench-${n}`, files, 'One page changed');
      const second = await importOnce(bench, space, url, { count: 2, searchFor: `wombatquasar${n}`, livePath: 'part-3/page-250', liveText: `wombatquasar${n}` });
      if (!second.markdown.includes(`wombatquasar${n}`)) throw new Error('the re-import did not go live');
      rounds.push({ ...baseline, importMs: imported.ms, reimportMs: second.ms, importCpu: imported.cpu });
      const base = baseline.cloneMs + baseline.parseMs;
      out.push(
        `  round ${n}${importFirst ? ' (import first)' : ''}: clone ${Math.round(baseline.cloneMs)} ms + parse ${Math.round(baseline.parseMs)} ms` +
          ` (markdown-it alone ${Math.round(baseline.markdownItMs)} ms); import ${Math.round(imported.ms)} ms (ratio ${(imported.ms / base).toFixed(2)}); re-import ${Math.round(second.ms)} ms`,
        `    CPU: import ${cpuTotal(imported.cpu)} ms (API and projector ${imported.cpu.self}, worker ${imported.cpu.worker}, git server ${imported.cpu.git}, PostgreSQL ${imported.cpu.postgres});` +
          ` baseline ${Math.round(baseline.cloneCpuMs + baseline.parseMs)} ms (git clone and its server ${baseline.cloneCpuMs}, parse ${Math.round(baseline.parseMs)})`,
      );
    }
    const ratio = median(rounds.map((r) => r.importMs / (r.cloneMs + r.parseMs)));
    const bareRatio = median(rounds.map((r) => r.importMs / (r.cloneMs + r.markdownItMs)));
    const cpuRatio = median(rounds.map((r) => cpuTotal(r.importCpu) / (r.cloneCpuMs + r.parseMs)));
    const cpuMedian = (part: keyof CpuSnapshot) => Math.round(median(rounds.map((r) => r.importCpu[part])));
    out.push(
      `  baseline (git clone + markdownToDocument of every page): median ${Math.round(median(rounds.map((r) => r.cloneMs + r.parseMs)))} ms`,
      `  import, request -> live+searchable: median ${Math.round(median(rounds.map((r) => r.importMs)))} ms`,
      `  import / baseline: median ratio     ${ratio.toFixed(2)}  (target <= ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'ok' : 'MISSED'})`,
      `  (against git clone + markdown-it's bare parse instead: ${bareRatio.toFixed(2)})`,
      `  CPU of the import / of the baseline: median ratio ${cpuRatio.toFixed(2)}; import medians: API and projector ${cpuMedian('self')} ms,` +
        ` worker ${cpuMedian('worker')}, git server ${cpuMedian('git')}, PostgreSQL ${cpuMedian('postgres')} (2 cores: wall time is at least half the total)`,
      `  re-import after a one-page change  ${Math.round(median(rounds.map((r) => r.reimportMs)))} ms  (target < 2000 ms)`,
      `  peak RSS of the worker process     ${bench.workerPeakMb()} MB  (target < 500 MB)`,
      `  ${await hostLoad()} after`,
      ...workerPhases(bench.worker, 1000).map((line) => `    ${line}`),
    );
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    await bench.close();
  }
}
