import type { RetrievedSection } from '../search.queries';

/** GitBook's SearchAIAnswer, with the answer still as markdown (the API renders the format). */
export interface AskAnswer {
  markdown: string;
  sources: AskPageSource[];
  followupQuestions: string[];
}

export interface AskPageSource {
  type: 'page';
  page: string;
  revision: string;
  space: string;
  sections: string[];
  reason?: string;
}

/** Where a cited section lives, as a URL. */
export type SectionLink = (s: { spaceId: string; path: string; sectionId: string }) => string;

export const NOTHING_FOUND =
  "I couldn't find anything about this in the documentation you have access to. Try other words, or ask about a topic the documentation covers.";

/** One source per page, sections in the order they were used. */
export function sourcesOf(sections: readonly RetrievedSection[], reason: (page: RetrievedSection[]) => string | undefined): AskPageSource[] {
  const byPage = new Map<string, RetrievedSection[]>();
  for (const s of sections) {
    const key = `${s.spaceId}/${s.pageId}`;
    byPage.set(key, [...(byPage.get(key) ?? []), s]);
  }
  return [...byPage.values()].map((list) => {
    const first = list[0];
    const source: AskPageSource = {
      type: 'page',
      page: first.pageId,
      revision: first.revision,
      space: first.spaceId,
      sections: [...new Set(list.map((s) => s.sectionId))],
    };
    const why = reason(list);
    if (why) source.reason = why;
    return source;
  });
}

/** Questions about related sections the answer did not use. */
export function followupQuestions(related: readonly RetrievedSection[], used: readonly RetrievedSection[], max = 3): string[] {
  const usedKeys = new Set(used.map((s) => `${s.spaceId}/${s.pageId}/${s.sectionId}`));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of related) {
    if (out.length >= max) break;
    if (usedKeys.has(`${s.spaceId}/${s.pageId}/${s.sectionId}`)) continue;
    const topic = (s.sectionTitle || s.pageTitle).trim();
    if (!topic || seen.has(topic.toLowerCase())) continue;
    seen.add(topic.toLowerCase());
    out.push(/[?？]$/.test(topic) ? topic : `What should I know about ${topic}?`);
  }
  return out;
}

/** Plain text made safe to embed in markdown prose. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>|~])/g, '\\$1').replace(/^([#>+-]|\d+\.)(\s)/, '\\$1$2');
}

export function citation(s: RetrievedSection, link: SectionLink): string {
  const label = s.sectionTitle && s.sectionTitle !== s.pageTitle ? `${s.pageTitle} › ${s.sectionTitle}` : s.pageTitle;
  return `[${escapeMarkdown(label || 'source')}](${link({ spaceId: s.spaceId, path: s.path, sectionId: s.sectionId })})`;
}
