import { Injectable } from '@nestjs/common';
import { createHash } from 'crypto';
import { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { SearchQueries } from '@quire/search';
import { html } from './html';
import { renderLayout } from './layout';
import { PublishedSites, PublishedSpace, SiteAddress } from './published-sites';
import { renderNavigation } from './render-navigation';
import { renderNotFound, renderStandaloneNotFound } from './render-not-found';
import { renderPage } from './render-page';
import { renderSearchPage, siteSearchHits } from './render-search';
import { firstDocument } from './site-index';
import { SITE_SCRIPT_HASH } from './site-script';
import { SITE_STYLE } from './site-style';
import { encodePagePath } from './site-urls';
import { ifNoneMatchHolds } from '../http/conditional';
import { fileBytesHeaders } from '../http/file-bytes';
import { SHARE_PARAM } from '../spaces/share-links';

const STYLE_HASH = `sha256-${createHash('sha256').update(SITE_STYLE).digest('base64')}`;
/** Only the site's own script and stylesheet run; content cannot add either. */
const PAGE_CSP = `default-src 'none'; img-src 'self' https: http: data:; style-src '${STYLE_HASH}'; script-src '${SITE_SCRIPT_HASH}'; connect-src 'self'; form-action 'self'; base-uri 'none'`;
const MAX_QUERY = 512;
/** Rendered pages kept for repeat views, by characters of HTML (about twice as many bytes). */
const RENDERED_CACHE_CHARS = 32 * 1024 * 1024;
const RENDERED_ENTRY_MAX_CHARS = 4 * 1024 * 1024;

type Reply = FastifyReply;

/**
 * What a published site answers, whichever way it was addressed (site.controller.ts below
 * QUIRE_PUBLISHED_URL, custom-host-sites.ts on a custom hostname):
 * - `<space>` the first page, `<space>/<page path>` every other page;
 * - `<space>/~/files/<fileId>/<name>` the space's files (images);
 * - `<space>/~/search?q=` the results page, `~/search.json?query=` results for the script.
 * No token: only public and unlisted spaces answer (PublishedSites), anything else is a 404.
 */
@Injectable()
export class SitePages {
  /**
   * Pages as rendered, by space, ETag and page: what a page shows is fixed by its revision and
   * the settings in its ETag, so a repeat view (the common case of an anonymous reader) costs a
   * lookup instead of a render. Bounded in memory; a page too large for it is rendered each time.
   */
  private readonly rendered = new LRUCache<string, string>({
    maxSize: RENDERED_CACHE_CHARS,
    maxEntrySize: RENDERED_ENTRY_MAX_CHARS,
    sizeCalculation: (page) => Math.max(1, page.length),
  });

  constructor(
    private readonly sites: PublishedSites,
    private readonly search: SearchQueries,
  ) {}

  async file(address: SiteAddress, spaceId: string, fileId: string, version: unknown, req: FastifyRequest, reply: Reply) {
    const site = await this.find(address, spaceId, `/~/files/${encodeURIComponent(fileId)}`, req, reply);
    if (!site) return;
    const file = site.index.filesById.get(fileId);
    if (!file) return reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('File not found');
    const etag = `"${file.blob}"`;
    // A URL naming the current content (`?v=`) never changes meaning; a bare one is revalidated.
    const scope = site.visibility === 'share-link' ? 'private' : 'public';
    const cache = typeof version === 'string' && version.length >= 7 && file.blob.startsWith(version) ? `${scope}, max-age=31536000, immutable` : `${scope}, max-age=300`;
    reply.header('etag', etag).header('cache-control', cache).headers(fileBytesHeaders(file));
    if (notModified(req, etag)) return reply.status(304).send();
    const bytes = await this.sites.readFile(site, file.blob);
    return reply.status(200).send(Buffer.from(bytes));
  }

  async searchPage(address: SiteAddress, spaceId: string, q: unknown, req: FastifyRequest, reply: Reply) {
    const site = await this.find(address, spaceId, '/~/search', req, reply);
    if (!site) return;
    const query = typeof q === 'string' ? q.trim().slice(0, MAX_QUERY) : '';
    const hits = query ? siteSearchHits(await this.search.searchSpace(site.space.id, query, { limit: 25 }), site.index, site.urls) : [];
    const page = renderLayout({
      site: this.siteHeader(site),
      title: query ? `Search: ${query}` : 'Search',
      noindex: true,
      navigation: renderNavigation(site.index, site.urls),
      main: renderSearchPage(query, hits),
      searchQuery: query,
      language: site.space.language,
    });
    return sendHtml(reply, 200, page, { 'cache-control': 'no-store' });
  }

  async searchJson(address: SiteAddress, spaceId: string, q: unknown, req: FastifyRequest, reply: Reply) {
    const site = await this.find(address, spaceId, '/~/search.json', req, reply, false);
    if (!site) return;
    const query = typeof q === 'string' ? q.trim().slice(0, MAX_QUERY) : '';
    const items = query ? siteSearchHits(await this.search.searchSpace(site.space.id, query, { limit: 10 }), site.index, site.urls) : [];
    return reply.status(200).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff').type('application/json; charset=utf-8').send({ items });
  }

  async page(address: SiteAddress, spaceId: string, rawPath: string, req: FastifyRequest, reply: Reply) {
    const path = rawPath.replace(/^\/+|\/+$/g, '');
    const site = await this.find(address, spaceId, path ? `/${encodePagePath(path)}` : '', req, reply);
    if (!site) return;
    const node = path === '' ? site.index.first : site.index.byPath.get(path);
    if (!node) {
      // A group has no page of its own: it opens on its first document.
      const group = path ? findGroup(site, path) : undefined;
      const landing = group && firstDocument(group);
      if (landing) return reply.status(302).header('location', site.urls.page(landing)).send();
      return this.notFound(site, reply);
    }
    reply.header('etag', site.etag).header('cache-control', `${site.visibility === 'share-link' ? 'private' : 'public'}, max-age=0, must-revalidate`);
    if (notModified(req, site.etag)) return reply.status(304).send();
    const headers: Record<string, string> = site.visibility !== 'public' ? { 'x-robots-tag': 'noindex' } : {};
    const key = `${site.space.id}\u0000${site.etag}\u0000${node.id}`;
    const cached = this.rendered.get(key);
    if (cached !== undefined) return sendHtml(reply, 200, cached, headers);
    const document = await this.sites.document(site, node.path);
    const page = renderLayout({
      site: this.siteHeader(site),
      title: node.title,
      description: node.description,
      canonicalUrl: this.sites.absoluteUrl(site, node),
      noindex: site.visibility !== 'public',
      navigation: renderNavigation(site.index, site.urls, node.id),
      main: renderPage(site.index, site.urls, node, document),
      language: site.space.language,
    });
    this.rendered.set(key, page);
    return sendHtml(reply, 200, page, headers);
  }

  /** An address that names no published space at all. */
  nothingHere(reply: Reply, asHtml = true) {
    if (asHtml) return sendHtml(reply, 404, renderStandaloneNotFound(), { 'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'` });
    return reply.status(404).type('application/json; charset=utf-8').send({ error: { code: 404, message: 'No published site here' } });
  }

  /**
   * The published space, or the answer already sent (404, or a redirect to its canonical URL).
   * A share-link space's key comes in the link's query (`?share=`), then in a cookie scoped to
   * the site's path, set here, so that the site's own links and its search work without it.
   */
  private async find(address: SiteAddress, spaceId: string, rest: string, req: FastifyRequest, reply: Reply, asHtml = true): Promise<PublishedSpace | undefined> {
    const fromQuery = (req.query as Record<string, unknown> | undefined)?.[SHARE_PARAM];
    const shareKey = typeof fromQuery === 'string' ? fromQuery : readCookie(req, shareCookie(spaceId));
    const query = typeof fromQuery === 'string' ? `?${SHARE_PARAM}=${encodeURIComponent(fromQuery)}` : '';
    const lookup = await this.sites.lookup(address, spaceId, rest, shareKey, query);
    if ('found' in lookup) {
      const site = lookup.found;
      if (site.visibility === 'share-link' && typeof fromQuery === 'string') {
        const secure = req.protocol === 'https' ? '; Secure' : '';
        reply.header('set-cookie', `${shareCookie(spaceId)}=${fromQuery}; Path=${site.root}; HttpOnly; SameSite=Lax${secure}`);
      }
      return site;
    }
    if ('redirect' in lookup) {
      await reply.status(301).header('location', lookup.redirect).send();
      return undefined;
    }
    await this.nothingHere(reply, asHtml);
    return undefined;
  }

  private notFound(site: PublishedSpace, reply: Reply) {
    const page = renderLayout({
      site: this.siteHeader(site),
      title: 'Page not found',
      noindex: true,
      navigation: renderNavigation(site.index, site.urls),
      main: html`${renderNotFound(site.urls)}`,
      language: site.space.language,
    });
    return sendHtml(reply, 404, page);
  }

  private siteHeader(site: PublishedSpace) {
    return { title: site.space.title, emoji: site.space.emoji, urls: site.urls };
  }
}

function findGroup(site: PublishedSpace, path: string) {
  for (const node of site.index.byId.values()) if (node.kind === 'group' && node.path === path) return node;
  return undefined;
}

function sendHtml(reply: Reply, status: number, body: string, headers: Record<string, string> = {}) {
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'strict-origin-when-cross-origin');
  if (status !== 200) reply.header('cache-control', 'no-store');
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.send(body);
}

function notModified(req: FastifyRequest, etag: string): boolean {
  return ifNoneMatchHolds(req.headers['if-none-match'], etag);
}

/** The cookie holding a share-link space's key once its link was opened. */
const shareCookie = (spaceId: string) => `quire_share_${spaceId}`;

function readCookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
