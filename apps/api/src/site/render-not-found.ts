import { html, SafeHtml } from './html';
import { SiteUrls } from './site-urls';

export function renderNotFound(urls?: SiteUrls): SafeHtml {
  return html`<article class="not-found"><h1>Page not found</h1><p>There is no page at this address.${urls ? html` <a href="${urls.root}">Go to the first page</a>.` : ''}</p></article>`;
}

/** For addresses that name no published space: nothing about the space is shown, not even a sidebar. */
export function renderStandaloneNotFound(): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Page not found</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:80px auto;padding:0 20px;color:#1f2328"><h1>Page not found</h1><p>There is no published site at this address.</p></body></html>
`.value;
}
