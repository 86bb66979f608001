import { RevisionFileNode, RevisionPageNode } from '@quire/domain';

/** The path part of `QUIRE_PUBLISHED_URL`, where sites are mounted ('' when it is a host root). */
export function siteBasePath(publishedUrl: string): string {
  return new URL(publishedUrl).pathname.replace(/\/+$/, '');
}

export const encodePagePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * The URLs one space's site shows, host-relative so the site works behind any proxy that keeps
 * paths. They are exactly the path of a published URL (`<published base>/<org hostname or
 * id>/<space>`, or `/<space>` on a custom hostname) plus the page path, which is what URL
 * resolution (`GET /v1/urls/content`) parses; the first page lives at the site's root. Files and
 * search sit under `~/`, which no page path uses.
 */
export class SiteUrls {
  /** `root`: `<base path>/<org segment>/<space id>`, or `/<space id>` on a custom hostname. */
  constructor(
    readonly root: string,
    private readonly firstPageId: string | undefined,
  ) {}

  page(page: Pick<RevisionPageNode, 'id' | 'path'>, anchor?: string): string {
    const path = page.id === this.firstPageId ? this.root : `${this.root}/${encodePagePath(page.path)}`;
    return anchor ? `${path}#${encodeURIComponent(anchor)}` : path;
  }

  /** Stable per file id; `v` (the content's blob) lets a page ask for a copy cacheable forever. */
  file(file: Pick<RevisionFileNode, 'id' | 'name' | 'blob'>): string {
    return `${this.root}/~/files/${encodeURIComponent(file.id)}/${encodeURIComponent(file.name)}?v=${file.blob.slice(0, 12)}`;
  }

  search(query?: string): string {
    return query === undefined ? `${this.root}/~/search` : `${this.root}/~/search?q=${encodeURIComponent(query)}`;
  }

  searchJson(): string {
    return `${this.root}/~/search.json`;
  }
}
