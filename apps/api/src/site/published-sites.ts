import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'crypto';
import { JSONDocument, parseBlobMarkdown } from '@quire/content/markdown';
import { ContentStore } from '@quire/content/store';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { AccessQueries, SpaceAccessRow } from '@quire/read-models/permissions/permissions.queries';
import { ContentReader } from '../content/content-reader';
import { jsonBytes, RevisionCache } from '../content/revision-cache';
import { entityId } from '../http/validation';
import { opensShareLink } from '../spaces/share-links';
import { publishedSpaceUrl, spaceVisibility } from '../spaces/spaces.presenter';
import { buildSiteIndex, SiteIndex } from './site-index';
import { encodePagePath, siteBasePath, SiteUrls } from './site-urls';

/** Bump when the markup changes, so caches drop pages rendered by an older version. */
const RENDERER_VERSION = '1';
/** No user has this id: access facts read for it are those of an anonymous visitor. */
const ANONYMOUS = '';

/**
 * Where a site is asked for: below QUIRE_PUBLISHED_URL under an organization segment (hostname or
 * id), or at the root of an organization's custom hostname (custom-host-sites.ts).
 */
export type SiteAddress = { organization: string } | { customHostname: string };

export interface PublishedSpace {
  space: SpaceAccessRow;
  visibility: 'public' | 'unlisted' | 'share-link';
  /** Where the site's pages live (its links and its share cookie's path). */
  root: string;
  index: SiteIndex;
  urls: SiteUrls;
  /** Changes with the revision and with every space setting a page shows. */
  etag: string;
}

export type SiteLookup = { found: PublishedSpace } | { redirect: string } | { missing: true };

/**
 * Which spaces are published and what their sites are made of. A space is served when it is
 * live and `public` or `unlisted`, under the organization segment of its organization (the
 * organization id redirects to the hostname when there is one) and, when its organization has a
 * custom hostname, also at that host's root. Everything else, private spaces and spaces of other
 * organizations included, is indistinguishable from a space that does not exist. A share-link
 * space is served like an unlisted one, to requests holding its share key (share-links.ts).
 *
 * A site's links are host-relative to the address it was asked at, so each form works on its own
 * (the path form keeps working when a custom hostname is added, whether or not the operator's
 * proxy routes it yet); `rel=canonical` is always `urls.published`, the custom hostname's URL
 * when there is one.
 */
@Injectable()
export class PublishedSites {
  readonly basePath: string;

  constructor(
    private readonly access: AccessQueries,
    private readonly content: ContentQueries,
    private readonly reader: ContentReader,
    private readonly store: ContentStore,
    private readonly cache: RevisionCache,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {
    this.basePath = siteBasePath(config.publishedUrl);
  }

  /** `shareKey`: the key the request holds, if any; `query`: kept on a redirect (`?share=...`). */
  async lookup(address: SiteAddress, spaceId: string, rest = '', shareKey?: string, query = ''): Promise<SiteLookup> {
    if (!entityId.safeParse(spaceId).success) return { missing: true };
    const space = await this.access.space(spaceId, ANONYMOUS);
    if (!space || space.deleted_at) return { missing: true };
    const visibility = spaceVisibility(space);
    const shared = visibility === 'share-link' && opensShareLink(this.config, space, shareKey);
    if (visibility !== 'public' && visibility !== 'unlisted' && !shared) return { missing: true };
    let root: string;
    if ('customHostname' in address) {
      if (!space.organization_custom_hostname || address.customHostname !== space.organization_custom_hostname) return { missing: true };
      root = `/${encodeURIComponent(space.id)}`;
    } else {
      const canonical = space.organization_hostname ?? space.organization_id;
      if (address.organization !== canonical) {
        const sameOrganization = address.organization === space.organization_id || address.organization.toLowerCase() === space.organization_hostname?.toLowerCase();
        if (!sameOrganization) return { missing: true };
        return { redirect: `${this.basePath}/${encodeURIComponent(canonical)}/${encodeURIComponent(space.id)}${rest}${query}` };
      }
      root = `${this.basePath}/${encodeURIComponent(canonical)}/${encodeURIComponent(space.id)}`;
    }
    const index = await this.index(space);
    const urls = new SiteUrls(root, index.first?.id);
    // The links (root) and the canonical URL (custom hostname) are part of every page.
    const settings = [
      RENDERER_VERSION,
      space.title,
      space.emoji,
      space.icon,
      space.language,
      visibility,
      root,
      space.organization_custom_hostname ?? '',
      new Date(space.updated_at).toISOString(),
    ].join('\u0000');
    const etag = `"${space.revision}-${createHash('sha1').update(settings).digest('hex').slice(0, 12)}"`;
    return { found: { space, visibility: visibility as PublishedSpace['visibility'], root, index, urls, etag } };
  }

  /** The absolute published URL of a site path (for `rel=canonical`). */
  absoluteUrl(site: PublishedSpace, page?: { id: string; path: string }): string {
    const root = publishedSpaceUrl(this.config, site.space);
    return page && page.id !== site.index.first?.id ? `${root}/${encodePagePath(page.path)}` : root;
  }

  /** The page's document, from the page lookups the API's content reads share (once per revision and path). */
  async document(site: PublishedSpace, pagePath: string): Promise<JSONDocument | undefined> {
    const page = await this.reader.revisionPageLookup(site.space.id, site.space.revision, { path: pagePath });
    return page?.node.blob && page.markdown !== null ? parseBlobMarkdown(page.node.blob, page.markdown).document : undefined;
  }

  readFile(site: PublishedSpace, blob: string): Promise<Uint8Array> {
    return this.store.readBlob(site.space.id, blob);
  }

  /** The revision's index, built once per revision (it is immutable, like the revision). */
  private async index(space: SpaceAccessRow): Promise<SiteIndex> {
    const cached = await this.cache.get(['site-index', space.id, space.revision], () => this.loadIndex(space), (built) => built.bytes);
    if (cached) return cached.index;
    // The spaces read model can name a revision a moment before the content projection has it:
    // loadIndex gave it that moment; show the revision empty (but do not remember it so).
    return buildSiteIndex(space.revision, [], []);
  }

  private async loadIndex(space: SpaceAccessRow): Promise<{ index: SiteIndex; bytes: number } | undefined> {
    let revision = await this.content.revision(space.id, space.revision);
    for (let wait = 5; !revision && wait <= 640; wait *= 2) {
      await new Promise((r) => setTimeout(r, wait));
      revision = await this.content.revision(space.id, space.revision);
    }
    if (!revision) return undefined;
    const index = buildSiteIndex(space.revision, revision.pages, revision.files);
    // The tree and files as JSON, and a few slots for each entry of the index's maps.
    const entries = index.byId.size * 3 + index.byPath.size + index.byFile.size + index.filesById.size * 2;
    return { index, bytes: jsonBytes(revision.pages) + jsonBytes(revision.files) + 96 * entries };
  }
}
