import type { RetrievedSection } from '../search.queries';
import { countMatched, TermMatcher } from '../query/term-matchers';
import { AskAnswer, citation, escapeMarkdown, followupQuestions, SectionLink, sourcesOf } from './ask-answer';

const SECTIONS_USED = 3;
const SENTENCES_PER_SECTION = 2;
const MAX_SENTENCE = 400;

/**
 * The answer without a model: the sentences of the best sections that hold the most question
 * terms, in their original order, each paragraph citing its page and section.
 */
export function extractiveAnswer(opts: { relevant: readonly RetrievedSection[]; matchers: readonly TermMatcher[]; link: SectionLink }): AskAnswer {
  const used = pickSections(opts.relevant);
  const paragraphs: string[] = [];
  for (const section of used) {
    const sentences = bestSentences(section.body, opts.matchers);
    const text = sentences.length ? sentences.map(escapeMarkdown).join(' ') : escapeMarkdown(shorten(firstLine(section.body) || section.sectionTitle || section.pageTitle));
    paragraphs.push(`${text} (${citation(section, opts.link)})`);
  }
  const labels = opts.matchers.map((m) => `“${m.label}”`);
  return {
    markdown: paragraphs.join('\n\n'),
    sources: sourcesOf(used, (list) => {
      const found = opts.matchers.filter((m) => countMatched(list.map((s) => `${s.pageTitle}\n${s.sectionTitle}\n${s.body}`).join('\n'), [m]) > 0);
      const what = (found.length ? found.map((m) => `“${m.label}”`) : labels).join(', ');
      return `Quoted for ${what} from ${list.map((s) => (s.sectionTitle ? `“${s.sectionTitle}”` : 'the introduction')).join(', ')}`;
    }),
    followupQuestions: followupQuestions(opts.relevant, used),
  };
}

/** The best sections, at most two from one page so that several pages get a say. */
function pickSections(relevant: readonly RetrievedSection[]): RetrievedSection[] {
  const out: RetrievedSection[] = [];
  const perPage = new Map<string, number>();
  for (const s of relevant) {
    if (out.length >= SECTIONS_USED) break;
    const key = `${s.spaceId}/${s.pageId}`;
    if ((perPage.get(key) ?? 0) >= 2) continue;
    perPage.set(key, (perPage.get(key) ?? 0) + 1);
    out.push(s);
  }
  return out;
}

export function splitSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{Lo}\p{N}"'(])|(?<=[。！？])/u))
    .map((s) => s.trim())
    .filter((s) => s.length >= 12 || /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u.test(s));
}

function bestSentences(body: string, matchers: readonly TermMatcher[]): string[] {
  const sentences = splitSentences(body);
  const scored = sentences
    .map((text, index) => ({ text, index, score: countMatched(text, matchers) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, SENTENCES_PER_SECTION)
    .sort((a, b) => a.index - b.index);
  return scored.map((s) => shorten(s.text));
}

function firstLine(text: string): string {
  return splitSentences(text)[0] ?? '';
}

function shorten(text: string): string {
  if (text.length <= MAX_SENTENCE) return text;
  const cut = text.lastIndexOf(' ', MAX_SENTENCE);
  return `${text.slice(0, cut > MAX_SENTENCE / 2 ? cut : MAX_SENTENCE)}…`;
}
