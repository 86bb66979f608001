import { markdownToDocument } from '@quire/content/markdown';
import type { AskAnswer } from '@quire/search';

/** GitBook's SearchAIAnswer; the answer as markdown, or as a document (the default). */
export function presentAnswer(answer: AskAnswer, format: 'document' | 'markdown' = 'document') {
  return {
    answer: format === 'markdown' ? { markdown: answer.markdown } : { document: answerDocument(answer.markdown) },
    followupQuestions: answer.followupQuestions,
    sources: answer.sources,
  };
}

/**
 * The answer as a document. The page converter takes a leading `# heading` as the page title
 * and a leading `---` block as front matter; an answer has neither, so a placeholder title goes
 * first and is what the converter takes away.
 */
export function answerDocument(markdown: string) {
  return markdownToDocument(`# Answer\n\n${markdown}`).document;
}
