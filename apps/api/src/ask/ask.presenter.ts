import { markdownToDocument } from '@quire/content/markdown';
import type { AskAnswer } from '@quire/search';

/** GitBook's SearchAIAnswer; the answer as markdown, or as a document (the default). */
export function presentAnswer(answer: AskAnswer, format: 'document' | 'markdown' = 'document') {
  return {
    answer: format === 'markdown' ? { markdown: answer.markdown } : { document: markdownToDocument(answer.markdown).document },
    followupQuestions: answer.followupQuestions,
    sources: answer.sources,
  };
}
