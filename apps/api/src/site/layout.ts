import { html, SafeHtml, trusted } from './html';
import { emojiText } from './render-document';
import { SITE_SCRIPT } from './site-script';
import { SITE_STYLE } from './site-style';
import { SiteUrls } from './site-urls';

export interface LayoutInput {
  site: { title: string; emoji?: string | null; urls: SiteUrls };
  /** The document title after the site's ('' for the site alone). */
  title: string;
  description?: string;
  /** Absolute URL under QUIRE_PUBLISHED_URL. */
  canonicalUrl?: string;
  /** Unlisted spaces and pages that are not content (search, not found). */
  noindex: boolean;
  navigation: SafeHtml;
  main: SafeHtml;
  searchQuery?: string;
  language?: string | null;
}

/** The page shell: header with the search box, the sidebar, the main column. */
export function renderLayout(input: LayoutInput): string {
  const { site } = input;
  const siteTitle = html`${site.emoji ? html`<span class="emoji">${emojiText(site.emoji)}</span> ` : ''}${site.title}`;
  const documentTitle = input.title && input.title !== site.title ? `${input.title} | ${site.title}` : site.title;
  return html`<!doctype html>
<html lang="${input.language || 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${documentTitle}</title>
${input.description ? html`<meta name="description" content="${input.description}">` : ''}
${input.noindex ? html`<meta name="robots" content="noindex">` : ''}
${input.canonicalUrl ? html`<link rel="canonical" href="${input.canonicalUrl}">` : ''}
<meta name="generator" content="Quire">
<link rel="icon" href="data:,">
<style>${trusted(SITE_STYLE)}</style>
</head>
<body>
<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-hidden="true">
<header class="site-header">
<label for="nav-toggle" class="nav-toggle-label" aria-label="Show or hide the pages">☰</label>
<a class="site-title" href="${site.urls.root}">${siteTitle}</a>
<form class="search" role="search" method="get" action="${site.urls.search()}" data-search-json="${site.urls.searchJson()}">
<input type="search" name="q" value="${input.searchQuery ?? ''}" placeholder="Search… (press /)" aria-label="Search this site" autocomplete="off" maxlength="512">
<ul class="search-results" hidden aria-label="Search results"></ul>
</form>
</header>
<div class="layout">
<aside class="sidebar">${input.navigation}</aside>
<main id="content">${input.main}</main>
</div>
<script>${trusted(SITE_SCRIPT)}</script>
</body>
</html>
`.value;
}
