import { QuireConfig } from '@quire/platform/config/config';
import type { PageHit, SearchableSpace, SearchResult } from '@quire/search';

/** The app URL of a page (and of a section, with its anchor); segments percent-encoded so it is a URI. */
export function pageAppUrl(config: QuireConfig, spaceId: string, path: string, anchor?: string): string {
  const encodedPath = path ? `/${path.split('/').map(encodeURIComponent).join('/')}` : '';
  return `${config.appUrl}/s/${spaceId}${encodedPath}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
}

/** GitBook's SearchPageResult. */
export function presentPageHit(config: QuireConfig, hit: PageHit) {
  return {
    id: hit.pageId,
    title: hit.title,
    description: hit.description,
    path: hit.path,
    score: hit.score,
    rank: hit.rank,
    resultType: hit.pageMatch ? ('page' as const) : ('section' as const),
    ancestors: hit.ancestors.map((title) => ({ title })),
    urls: { app: pageAppUrl(config, hit.spaceId, hit.path) },
    sections: hit.sections.map((s) => ({
      id: s.id,
      title: s.title,
      path: hit.path,
      score: s.score,
      resultType: s.matchedContent ? ('section' as const) : ('page' as const),
      body: s.body,
      urls: { app: pageAppUrl(config, hit.spaceId, hit.path, s.id) },
    })),
  };
}

export function presentSpaceSearch(config: QuireConfig, result: SearchResult) {
  return { items: result.items.map((hit) => presentPageHit(config, hit)), ...(result.next ? { next: result.next } : {}), count: result.count };
}

/**
 * GitBook's List<SearchSpaceResult>: the page of ranked pages grouped by space, spaces in the
 * order of their best page; each page keeps its global `rank`.
 */
export function presentOrganizationSearch(config: QuireConfig, result: SearchResult, spaces: readonly SearchableSpace[]) {
  const titles = new Map(spaces.map((s) => [s.id, s.title]));
  const groups = new Map<string, { type: 'space'; id: string; title: string; score: number; pages: ReturnType<typeof presentPageHit>[] }>();
  for (const hit of result.items) {
    let group = groups.get(hit.spaceId);
    if (!group) groups.set(hit.spaceId, (group = { type: 'space', id: hit.spaceId, title: titles.get(hit.spaceId) ?? '', score: hit.score, pages: [] }));
    group.score = Math.max(group.score, hit.score);
    group.pages.push(presentPageHit(config, hit));
  }
  return { items: [...groups.values()], ...(result.next ? { next: result.next } : {}), count: result.count };
}
