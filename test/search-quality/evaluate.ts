import { SEARCH_FIXTURES, SearchFixture, fixtureFiles } from '@quire/search/testing/search-fixtures';
import { DbKind, SearchHarness, startSearchHarness } from '@quire/search/testing/search-harness';
import { RELEVANCE_QUERIES, RelevanceQuery } from './queries';

export interface QueryOutcome extends RelevanceQuery {
  /** 1-based rank of the expected page in the first 10 results; null when absent. */
  rank: number | null;
  top: string[];
}

export interface QualityReport {
  queries: number;
  mrrAt10: number;
  recallAt10: number;
  outcomes: QueryOutcome[];
}

/** Imports every fixture into its own space, then runs the relevance set against it. */
export async function evaluateSearchQuality(kind: DbKind = 'postgres', harness?: SearchHarness): Promise<QualityReport> {
  const h = harness ?? (await startSearchHarness(kind));
  try {
    for (const name of Object.keys(SEARCH_FIXTURES) as SearchFixture[]) {
      if (await h.queries.space(name)) continue;
      await h.createSpace(name);
      await h.publish(name, fixtureFiles(name));
    }
    const outcomes: QueryOutcome[] = [];
    for (const q of RELEVANCE_QUERIES) {
      const result = await h.queries.searchSpace(q.fixture, q.query, { limit: 10 });
      const top = result.items.map((i) => i.path);
      const index = top.indexOf(q.expected);
      outcomes.push({ ...q, rank: index >= 0 ? index + 1 : null, top });
    }
    const mrr = outcomes.reduce((sum, o) => sum + (o.rank ? 1 / o.rank : 0), 0) / outcomes.length;
    const recall = outcomes.filter((o) => o.rank !== null).length / outcomes.length;
    return { queries: outcomes.length, mrrAt10: mrr, recallAt10: recall, outcomes };
  } finally {
    if (!harness) await h.close();
  }
}
