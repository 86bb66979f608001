import { JSONDocument } from '@quire/content/markdown';
import { RevisionPageNode } from '@quire/domain';
import { html, SafeHtml } from './html';
import { emojiText, OutlineEntry, renderDocument } from './render-document';
import { ancestorsOf, SiteIndex } from './site-index';
import { SiteUrls } from './site-urls';

/** The main column of a document page: breadcrumbs, title, description, content, previous / next, outline. */
export function renderPage(index: SiteIndex, urls: SiteUrls, page: RevisionPageNode, document: JSONDocument | null | undefined): SafeHtml {
  const { body, outline } = renderDocument(document, { index, urls, pageFile: page.file, pagePath: page.path });
  const trail = ancestorsOf(index, page.id);
  const position = index.readingOrder.findIndex((p) => p.id === page.id);
  const previous = position > 0 ? index.readingOrder[position - 1] : undefined;
  const next = position >= 0 ? index.readingOrder[position + 1] : undefined;
  return html`<article>
<header>
${trail.length ? html`<nav class="breadcrumbs" aria-label="Breadcrumbs">${trail.map((p) => html`<span>${p.title}</span>`)}</nav>` : ''}
<h1>${page.emoji ? html`<span class="emoji">${emojiText(page.emoji)}</span> ` : ''}${page.title}</h1>
${page.description ? html`<p class="description">${page.description}</p>` : ''}
</header>
<div class="content">${body}</div>
<nav class="pager" aria-label="Previous and next pages">${previous ? html`<a class="previous" rel="prev" href="${urls.page(previous)}"><small>Previous</small>${previous.title}</a>` : ''}${
    next ? html`<a class="next" rel="next" href="${urls.page(next)}"><small>Next</small>${next.title}</a>` : ''
  }</nav>
</article>${renderOutline(outline)}`;
}

/** The outline lists the first this many headings: past that it is no help to a reader, only cost. */
export const MAX_OUTLINE_ENTRIES = 100;

function renderOutline(outline: OutlineEntry[]): SafeHtml {
  const entries = outline.filter((o) => o.level <= 2).slice(0, MAX_OUTLINE_ENTRIES);
  if (entries.length < 2) return html``;
  return html`<aside class="outline" aria-label="On this page"><h2>On this page</h2><ul>${entries.map(
    (o) => html`<li class="level-${o.level}"><a href="#${o.id}">${o.title}</a></li>`,
  )}</ul></aside>`;
}
