import type { Logger } from '@quire/platform/logging/logger';
import { SearchableSpace, SearchQueries } from '../search.queries';
import { AskAnswer, NOTHING_FOUND, SectionLink } from './ask-answer';
import { extractiveAnswer } from './extractive-answer';
import { AskModelConfig, modelAnswer } from './model-answer';

const RETRIEVED = 8;
const GIVEN_TO_MODEL = 5;
/** The model is left alone for `cooldownMs` after this many failures in a row (timeouts included). */
const BREAKER_FAILURES = 3;
const BREAKER_COOLDOWN_MS = 30_000;
/** How long to wait for the model when no timeout is given (QUIRE_ASK_MODEL_TIMEOUT_MS's default). */
const MODEL_TIMEOUT_MS = 10_000;

/**
 * Ask: retrieve the best sections of the spaces the caller can read, keep those that hold
 * enough of the question's terms, and answer from them: through the configured model when
 * there is one (falling back to the extractive answer if it fails or is slower than
 * `timeoutMs`), else by quoting them. After `breaker.failures` failures in a row the model is
 * skipped for `breaker.cooldownMs`, then tried again (a circuit breaker).
 */
export class AskPipeline {
  constructor(
    private readonly queries: SearchQueries,
    private readonly opts: {
      model?: AskModelConfig;
      fetch?: typeof fetch;
      logger?: Logger;
      timeoutMs?: number;
      breaker?: { failures?: number; cooldownMs?: number };
    } = {},
  ) {}

  private failures = 0;
  private skipModelUntil = 0;

  async ask(input: { spaces: readonly SearchableSpace[]; query: string; previousQueries?: readonly string[]; link: SectionLink }): Promise<AskAnswer> {
    const previous = input.previousQueries ?? [];
    // Relevant: holds at least half of the question's terms (all of them for one or two).
    const { relevant, matchers } = await this.queries.retrieveSections(input.spaces, input.query, { limit: RETRIEVED, context: previous });
    if (relevant.length === 0) return { markdown: NOTHING_FOUND, sources: [], followupQuestions: [] };
    if (this.opts.model && Date.now() >= this.skipModelUntil) {
      try {
        const answer = await modelAnswer({
          model: this.opts.model,
          question: input.query,
          previousQueries: previous,
          sections: relevant.slice(0, GIVEN_TO_MODEL),
          related: relevant,
          link: input.link,
          fetch: this.opts.fetch,
          timeoutMs: this.opts.timeoutMs ?? MODEL_TIMEOUT_MS,
        });
        this.failures = 0;
        return answer;
      } catch (err) {
        this.failures++;
        const open = this.failures >= (this.opts.breaker?.failures ?? BREAKER_FAILURES);
        if (open) this.skipModelUntil = Date.now() + (this.opts.breaker?.cooldownMs ?? BREAKER_COOLDOWN_MS);
        this.opts.logger?.warn({ err: (err as Error)?.message, failures: this.failures, skipping: open }, 'ask: model failed; answering from the sources');
      }
    }
    return extractiveAnswer({ relevant, matchers, link: input.link });
  }
}
