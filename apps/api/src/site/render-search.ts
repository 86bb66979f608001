import type { PageHit, SearchResult } from '@quire/search';
import { html, SafeHtml } from './html';
import { SiteIndex } from './site-index';
import { SiteUrls } from './site-urls';

/** One search hit as the site shows it: the page, or its best matching section. */
export interface SiteSearchHit {
  title: string;
  ancestors: string[];
  snippet: string;
  url: string;
  path: string;
  sections: Array<{ title: string; snippet: string; url: string }>;
}

/** Hits on pages the site does not show (hidden from the tree, removed since indexing) are dropped. */
export function siteSearchHits(result: SearchResult, index: SiteIndex, urls: SiteUrls): SiteSearchHit[] {
  return result.items.flatMap((hit: PageHit) => {
    const page = index.byId.get(hit.pageId) ?? index.byPath.get(hit.path);
    if (!page || page.kind !== 'sheet') return [];
    const sections = hit.sections.map((s) => ({ title: s.title || hit.title, snippet: s.body, url: urls.page(page, s.id || undefined), matched: s.matchedContent }));
    const best = hit.pageMatch ? undefined : sections.find((s) => s.matched);
    return [
      {
        title: hit.title,
        ancestors: hit.ancestors,
        snippet: best?.snippet ?? sections[0]?.snippet ?? hit.description,
        url: best?.url ?? urls.page(page),
        path: hit.path,
        sections: sections.map(({ matched: _m, ...s }) => s),
      },
    ];
  });
}

/** The results page the search form submits to (the page that works without the script). */
export function renderSearchPage(query: string, hits: SiteSearchHit[]): SafeHtml {
  return html`<article class="search-page">
<h1>${query ? html`Results for “${query}”` : 'Search'}</h1>
${query && hits.length === 0 ? html`<p>No page matches this search.</p>` : ''}
<ol>${hits.map(
    (h) =>
      html`<li class="hit"><a href="${h.url}"><span class="hit-title">${h.title}</span>${h.ancestors.length ? html`<span class="hit-path">${h.ancestors.join(' / ')}</span>` : ''}${
        h.snippet ? html`<span class="hit-body">${h.snippet}</span>` : ''
      }</a></li>`,
  )}</ol>
</article>`;
}
