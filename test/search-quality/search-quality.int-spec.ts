import { evaluateSearchQuality } from './evaluate';

/**
 * The relevance set over the real fixture documentation: MRR@10 must stay at 0.95 or above (0.961
 * when raised) and every expected page within the first 10 results.
 */
describe('search relevance (fixture documentation)', () => {
  it('ranks the expected page high enough: MRR@10 >= 0.95, recall@10 = 1', async () => {
    const report = await evaluateSearchQuality('postgres');
    const misses = report.outcomes.filter((o) => o.rank !== 1).map((o) => `${o.fixture}: ${JSON.stringify(o.query)} -> ${o.rank ?? 'missing'} (top: ${o.top.slice(0, 3).join(', ')})`);
    if (misses.length) process.stdout.write(`not first:\n  ${misses.join('\n  ')}\n`);
    expect(report.queries).toBeGreaterThanOrEqual(40);
    expect(report.mrrAt10).toBeGreaterThanOrEqual(0.95);
    expect(report.recallAt10).toBe(1);
  }, 300_000);
});
