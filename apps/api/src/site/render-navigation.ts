import { RevisionPageNode } from '@quire/domain';
import { html, safeUrl, SafeHtml } from './html';
import { emojiText } from './render-document';
import { ancestorsOf, SiteIndex } from './site-index';
import { SiteUrls } from './site-urls';

/**
 * The sidebar: the revision's tree as GitBook shows it. Top-level groups become titled
 * sections, documents nest under their parents (collapsed in `<details>` unless they hold the
 * active page), link pages point outside, hidden pages are left out.
 */
export function renderNavigation(index: SiteIndex, urls: SiteUrls, activeId?: string): SafeHtml {
  const open = new Set(activeId ? [activeId, ...ancestorsOf(index, activeId).map((p) => p.id)] : []);
  const item = (page: RevisionPageNode): SafeHtml => {
    if (page.hidden) return html``;
    const title = html`${page.emoji ? html`<span class="emoji">${emojiText(page.emoji)}</span> ` : ''}${page.title}`;
    if (page.kind === 'link') {
      const href = safeUrl(page.href ?? '');
      return href ? html`<li><a class="external" href="${href}" rel="noopener noreferrer">${title}</a></li>` : html``;
    }
    if (page.kind === 'group') return html`<li class="nav-subgroup"><span class="nav-group-title">${title}</span>${list(page.children)}</li>`;
    const active = page.id === activeId;
    const link = html`<a href="${urls.page(page)}"${active ? html` aria-current="page" class="active"` : ''}>${title}</a>`;
    const children = page.children.filter((c) => !c.hidden);
    if (children.length === 0) return html`<li>${link}</li>`;
    return html`<li><details${open.has(page.id) ? html` open` : ''}><summary>${link}</summary>${list(children)}</details></li>`;
  };
  const list = (pages: readonly RevisionPageNode[]) => html`<ul>${pages.map(item)}</ul>`;

  const sections: SafeHtml[] = [];
  let loose: RevisionPageNode[] = [];
  const flush = () => {
    if (loose.length) sections.push(html`<div class="nav-group">${list(loose)}</div>`);
    loose = [];
  };
  for (const page of index.pages) {
    if (page.kind !== 'group') {
      loose.push(page);
      continue;
    }
    flush();
    if (page.hidden) continue;
    sections.push(
      html`<div class="nav-group"><h2 class="nav-group-title">${page.emoji ? html`<span class="emoji">${emojiText(page.emoji)}</span> ` : ''}${page.title}</h2>${list(page.children)}</div>`,
    );
  }
  flush();
  return html`<nav class="sidebar-nav" aria-label="Pages">${sections}</nav>`;
}
