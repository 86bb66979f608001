import type { Logger } from '@quire/platform/logging/logger';
import { SearchableSpace, SearchQueries } from '../search.queries';
import { AskAnswer, NOTHING_FOUND, SectionLink } from './ask-answer';
import { extractiveAnswer } from './extractive-answer';
import { AskModelConfig, modelAnswer } from './model-answer';

const RETRIEVED = 8;
const GIVEN_TO_MODEL = 5;

/**
 * Ask: retrieve the best sections of the spaces the caller can read, keep those that hold
 * enough of the question's terms, and answer from them: through the configured model when
 * there is one (falling back to the extractive answer if it fails), else by quoting them.
 */
export class AskPipeline {
  constructor(
    private readonly queries: SearchQueries,
    private readonly opts: { model?: AskModelConfig; fetch?: typeof fetch; logger?: Logger; timeoutMs?: number } = {},
  ) {}

  async ask(input: { spaces: readonly SearchableSpace[]; query: string; previousQueries?: readonly string[]; link: SectionLink }): Promise<AskAnswer> {
    const previous = input.previousQueries ?? [];
    const { sections, matchers } = await this.queries.retrieveSections(input.spaces, input.query, { limit: RETRIEVED, context: previous });
    // Relevant: holds at least half of the question's terms (all of them for one or two).
    const needed = matchers.length <= 2 ? matchers.length : Math.ceil(matchers.length / 2);
    const relevant = matchers.length ? sections.filter((s) => s.matchedTerms >= needed) : [];
    if (relevant.length === 0) return { markdown: NOTHING_FOUND, sources: [], followupQuestions: [] };
    if (this.opts.model) {
      try {
        return await modelAnswer({
          model: this.opts.model,
          question: input.query,
          previousQueries: previous,
          sections: relevant.slice(0, GIVEN_TO_MODEL),
          related: relevant,
          link: input.link,
          fetch: this.opts.fetch,
          timeoutMs: this.opts.timeoutMs,
        });
      } catch (err) {
        this.opts.logger?.warn({ err: (err as Error)?.message }, 'ask: model failed; answering from the sources');
      }
    }
    return extractiveAnswer({ relevant, matchers, link: input.link });
  }
}
