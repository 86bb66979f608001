import { evaluateSearchQuality } from '../test/search-quality/evaluate';

/**
 * `npm run bench -- search-quality`: the relevance set of test/search-quality (70 queries over
 * the three fixture documentation repositories) on PostgreSQL: MRR@10 and recall@10, and the
 * queries whose expected page is not first. Target: MRR@10 >= 0.8.
 */
export async function run(): Promise<void> {
  const started = Date.now();
  const report = await evaluateSearchQuality('postgres');
  process.stdout.write(`  queries: ${report.queries}\n`);
  process.stdout.write(`  MRR@10: ${report.mrrAt10.toFixed(3)}${report.mrrAt10 >= 0.8 ? '  ok (>= 0.8)' : '  MISSED (>= 0.8)'}\n`);
  process.stdout.write(`  recall@10: ${report.recallAt10.toFixed(3)}\n`);
  for (const o of report.outcomes.filter((x) => x.rank !== 1)) {
    process.stdout.write(`    ${o.fixture}: ${JSON.stringify(o.query)} -> rank ${o.rank ?? '>10'} (expected ${o.expected}; first ${o.top[0] ?? 'nothing'})\n`);
  }
  process.stdout.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s including the import of the fixtures)\n`);
}
