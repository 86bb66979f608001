import type { RetrievedSection } from '../search.queries';
import { AskAnswer, citation, followupQuestions, SectionLink, sourcesOf } from './ask-answer';
import { sanitizeModelMarkdown } from './sanitize-markdown';

export interface AskModelConfig {
  /** An OpenAI-compatible API: its base URL (…/v1) or the chat completions URL itself. */
  url: string;
  model: string;
  key?: string;
}

export class AskModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AskModelError';
  }
}

const MAX_CONTEXT_CHARS = 2_000;
const SYSTEM_PROMPT = [
  'You answer questions about documentation using only the numbered excerpts you are given.',
  'Cite the excerpts you use as [1], [2]. If the excerpts do not answer the question, say so plainly and do not guess.',
  'Answer in concise markdown, in the language of the question.',
].join(' ');

export function chatCompletionsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/**
 * Asks an OpenAI-compatible chat completions endpoint to write the answer from the retrieved
 * sections only (nothing else of the content leaves the server). Citations `[n]` become links.
 */
export async function modelAnswer(opts: {
  model: AskModelConfig;
  question: string;
  previousQueries: readonly string[];
  sections: readonly RetrievedSection[];
  related: readonly RetrievedSection[];
  link: SectionLink;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Promise<AskAnswer> {
  const excerpts = opts.sections
    .map((s, i) => {
      const heading = [s.pageTitle, s.sectionTitle].filter(Boolean).join(' › ');
      const body = s.body.length > MAX_CONTEXT_CHARS ? `${s.body.slice(0, MAX_CONTEXT_CHARS)}…` : s.body;
      return `[${i + 1}] ${heading}\n${body}`;
    })
    .join('\n\n');
  const earlier = opts.previousQueries.length ? `Earlier questions in this conversation:\n${opts.previousQueries.map((q) => `- ${q}`).join('\n')}\n\n` : '';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.model.key) headers.authorization = `Bearer ${opts.model.key}`;
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(chatCompletionsUrl(opts.model.url), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: opts.model.model,
        temperature: 0.2,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Documentation excerpts:\n\n${excerpts}\n\n${earlier}Question: ${opts.question}` },
        ],
      }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
  } catch (err) {
    throw new AskModelError(`model endpoint unreachable: ${(err as Error)?.name === 'TimeoutError' ? 'timed out' : ((err as Error)?.message ?? err)}`);
  }
  if (!response.ok) throw new AskModelError(`model endpoint answered ${response.status}`);
  const body = (await response.json().catch(() => undefined)) as { choices?: Array<{ message?: { content?: unknown } }> } | undefined;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new AskModelError('model endpoint returned no answer');

  const cited = new Set<number>();
  // The model's markdown is shown as is: no raw HTML, no script or data links.
  const markdown = sanitizeModelMarkdown(content).trim().replace(/\[(\d{1,2})\](?!\()/g, (whole, n) => {
    const section = opts.sections[Number(n) - 1];
    if (!section) return whole;
    cited.add(Number(n) - 1);
    return `[${n}](${opts.link({ spaceId: section.spaceId, path: section.path, sectionId: section.sectionId })})`;
  });
  const used = cited.size ? opts.sections.filter((_, i) => cited.has(i)) : [...opts.sections];
  return {
    markdown: cited.size ? markdown : `${markdown}\n\nSources: ${used.map((s) => citation(s, opts.link)).join(', ')}`,
    sources: sourcesOf(used, () => (cited.size ? 'Cited in the answer' : 'Given to the model as context')),
    followupQuestions: followupQuestions(opts.related, used),
  };
}
