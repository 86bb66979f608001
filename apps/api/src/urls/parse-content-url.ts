import { badRequest } from '@quire/domain';

/**
 * What a content URL names, before any lookup. Quire's URLs:
 * - published: `<QUIRE_PUBLISHED_URL>/<org hostname or id>/<space or collection id>[/<page path>]`
 *   (as spaces' `urls.published`), with `~/changes/<number or id>[/<page path>]` after the
 *   space id for a change request;
 * - app: `<QUIRE_APP_URL>/s/<spaceId>[...same as above]`, `<QUIRE_APP_URL>/c/<collectionId>`
 *   (as `urls.app`), also under `/o/<organizationId>/`.
 */
export interface ContentUrlTarget {
  /** The organization segment of a published URL (hostname or id); absent for app URLs. */
  organization?: string;
  /** A space or a collection id. */
  id: string;
  kind: 'space' | 'collection' | 'either';
  /** A change request key (number or id) when the URL goes through `~/changes/`. */
  changeRequest?: string;
  /** The page path inside the space (or the change request), '' for none. */
  pagePath: string;
  /** A share-link key carried in the query (`shareKey`). */
  shareKey?: string;
}

export interface ContentUrlBases {
  publishedUrl: string;
  appUrl: string;
}

/** Parses a URL; `undefined` when it is well-formed but not one of Quire's content URLs. */
export function parseContentUrl(raw: string, bases: ContentUrlBases): ContentUrlTarget | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Invalid query: url: must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('Invalid query: url: must be an http(s) URL');
  const shareKey = url.searchParams.get('shareKey') ?? undefined;

  const published = segmentsUnder(url, bases.publishedUrl);
  if (published) {
    const [organization, id, ...rest] = published;
    if (!organization || !id) return undefined;
    return inSpace({ organization, id, kind: 'either', shareKey }, rest);
  }
  let app = segmentsUnder(url, bases.appUrl);
  if (!app) return undefined;
  if (app[0] === 'o' && app.length >= 4) app = app.slice(2);
  const [kind, id, ...rest] = app;
  if (!id) return undefined;
  if (kind === 's') return inSpace({ id, kind: 'space', shareKey }, rest);
  if (kind === 'c' && rest.length === 0) return { id, kind: 'collection', pagePath: '', shareKey };
  return undefined;
}

function inSpace(target: Omit<ContentUrlTarget, 'pagePath'>, rest: string[]): ContentUrlTarget | undefined {
  if (rest[0] !== '~') return { ...target, pagePath: rest.join('/') };
  // `~/changes/<n>/...` is the only `~` route Quire knows.
  if (rest[1] !== 'changes' || !rest[2]) return undefined;
  return { ...target, kind: 'space', changeRequest: rest[2], pagePath: rest.slice(3).join('/') };
}

/** The decoded path segments of `url` below `base`, or undefined when it is not below it. */
function segmentsUnder(url: URL, base: string): string[] | undefined {
  const b = new URL(base);
  // The scheme may differ (http vs https behind a proxy); host, port and path must not.
  if (b.host.toLowerCase() !== url.host.toLowerCase()) return undefined;
  const basePath = b.pathname.replace(/\/+$/, '');
  const path = url.pathname;
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
  return path
    .slice(basePath.length)
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw badRequest('Invalid query: url: malformed percent-encoding in the path');
      }
    });
}
